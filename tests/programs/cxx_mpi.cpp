// cxx_mpi.cpp: an ordinary C++ MPI program (classes, templates, the
// standard library, exceptions thrown and caught, a thread) for runs that
// hook everything: each rank builds a vector, sorts it, sums it through a
// class hierarchy, throws and catches on odd values, and the ranks reduce
// the result, which rank 0 prints with a line per rank in rank order. The
// C API only (built with OMPI_SKIP_MPICXX/MPICH_SKIP_MPICXX).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Shape {
    virtual ~Shape() = default;
    virtual double area() const = 0;
};

struct Square : Shape {
    explicit Square(double s) : side(s) {}
    double area() const override { return side * side; }
    double side;
};

struct Circle : Shape {
    explicit Circle(double r) : radius(r) {}
    double area() const override { return 3.0 * radius * radius; }
    double radius;
};

template <typename T> T checked_half(T v)
{
    if (static_cast<long>(v) % 2 != 0)
        throw std::invalid_argument("odd: " + std::to_string(static_cast<long>(v)));
    return v / 2;
}

double rank_total(int rank, int n)
{
    std::vector<std::unique_ptr<Shape>> shapes;
    for (int i = 0; i < n; i++) {
        if ((i + rank) % 3 == 0)
            shapes.push_back(std::make_unique<Circle>(i % 7 + 1));
        else
            shapes.push_back(std::make_unique<Square>(i % 5 + 1));
    }
    std::vector<double> areas;
    for (const auto &s : shapes)
        areas.push_back(s->area());
    std::sort(areas.begin(), areas.end());
    double total = std::accumulate(areas.begin(), areas.end(), 0.0);
    int caught = 0;
    for (double a : areas) {
        try {
            total += checked_half(a);
        } catch (const std::invalid_argument &) {
            caught++;
        }
    }
    double from_thread = 0;
    std::thread worker([&] { from_thread = std::accumulate(areas.begin(), areas.end(), 0.0); });
    worker.join();
    return total + caught + from_thread;
}

}  // namespace

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double mine = rank_total(rank, 1000), all = 0;
    MPI_Reduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    std::vector<double> each(static_cast<size_t>(size));
    MPI_Gather(&mine, 1, MPI_DOUBLE, each.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        std::ostringstream out;
        for (int r = 0; r < size; r++)
            out << "cxx_mpi: rank " << r << " total " << each[static_cast<size_t>(r)] << "\n";
        out << "cxx_mpi: all " << all << "\n";
        std::fputs(out.str().c_str(), stdout);
    }
    MPI_Finalize();
    return 0;
}
