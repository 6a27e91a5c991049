/* petsc_laplace.c: a small PETSc program, the shape of a tutorial example:
 * assemble the 1-D Laplacian tridiag(-1, 2, -1) of size N (-n, default 100)
 * distributed over the ranks, and solve A u = b twice with conjugate
 * gradients and a Jacobi preconditioner (b = A * ones, so u = ones).
 * Prints "petsc_laplace: N rank(s), ITS iterations, error E" on rank 0. */
#include <petscksp.h>

static PetscErrorCode assemble(Mat A, PetscInt n)
{
    PetscInt first, last;
    PetscFunctionBeginUser;
    PetscCall(MatGetOwnershipRange(A, &first, &last));
    for (PetscInt i = first; i < last; i++) {
        PetscInt cols[3] = {i - 1, i, i + 1};
        PetscScalar vals[3] = {-1.0, 2.0, -1.0};
        if (i == 0)
            PetscCall(MatSetValues(A, 1, &i, 2, cols + 1, vals + 1, INSERT_VALUES));
        else if (i == n - 1)
            PetscCall(MatSetValues(A, 1, &i, 2, cols, vals, INSERT_VALUES));
        else
            PetscCall(MatSetValues(A, 1, &i, 3, cols, vals, INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
    PetscInt n = 100, its = 0;
    PetscMPIInt size;
    PetscReal error;
    Mat A;
    Vec u, b, exact;
    KSP ksp;
    PC pc;

    PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));

    PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
    PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, n, n));
    PetscCall(MatSetFromOptions(A));
    PetscCall(MatSetUp(A));
    PetscCall(assemble(A, n));
    PetscCall(MatCreateVecs(A, &u, &b));
    PetscCall(VecDuplicate(u, &exact));
    PetscCall(VecSet(exact, 1.0));
    PetscCall(MatMult(A, exact, b));

    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPCG));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
    PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 10 * n));
    PetscCall(KSPSetFromOptions(ksp));
    for (int solve = 0; solve < 2; solve++) {
        PetscCall(VecSet(u, 0.0));
        PetscCall(KSPSolve(ksp, b, u));
    }
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(VecAXPY(u, -1.0, exact));
    PetscCall(VecNorm(u, NORM_INFINITY, &error));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "petsc_laplace: %d rank(s), %d iterations, error %s\n",
                          size, (int)its, error < 1e-6 ? "small" : "LARGE"));

    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecDestroy(&exact));
    PetscCall(VecDestroy(&u));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFinalize());
    return 0;
}
