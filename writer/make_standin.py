#!/usr/bin/env python3
"""make_standin.py: builds a stand-in for one library that HDF5 links only
for its network drivers (the read-only S3 driver needs libcurl and
libcrypto), so that libscope can load the writer into its namespace without
them and the thirty-odd libraries they bring (TLS, Kerberos, LDAP, ...).

The stand-in has the real library's soname and the versions and functions
HDF5 asks of it (read from the HDF5 that the built libscope-writer links,
so it follows the HDF5 found at build time); each function returns 0 and
is never called, since scope opens no file through those drivers. When
HDF5 does not link such a library, the stand-in is built under a soname of
its own and stands in for nothing.

usage: make_standin.py OUTPUT.so WRITER.so SONAME_PREFIX CC [CC_ARGS...]
example: make_standin.py libscope-standin-curl.so libscope-writer.so libcurl.so gcc
"""
import os
import re
import subprocess
import sys
import tempfile


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def hdf5_of(writer):
    """The HDF5 library writer is linked with (its resolved path), or None."""
    for line in run("ldd", writer).splitlines():
        m = re.match(r"\s*(libhdf5\S*\.so\S*) => (\S+)", line)
        if m and "_hl" not in m.group(1):
            return m.group(2)
    return None


def needed_soname(lib, prefix):
    """lib's DT_NEEDED entry named prefix or prefix.N, or None."""
    for m in re.finditer(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run("readelf", "-d", "-W", lib)):
        name = m.group(1)
        if name == prefix or name.startswith(prefix + "."):
            return name
    return None


def versions_needed(lib, soname):
    """The symbol versions lib needs from soname (readelf -V)."""
    versions, current = [], None
    for line in run("readelf", "-V", "-W", lib).splitlines():
        f = re.search(r"File: (\S+)", line)
        if f:
            current = f.group(1)
            continue
        v = re.search(r"Name: (\S+)", line)
        if v and current == soname:
            versions.append(v.group(1))
    return versions


def functions_needed(lib, versions):
    """{version: [symbol, ...]} of lib's undefined symbols of those versions."""
    found = {v: [] for v in versions}
    for line in run("nm", "-D", "--undefined-only", lib).splitlines():
        m = re.match(r"\s*U (\w+)@(\S+)$", line)
        if m and m.group(2) in found:
            found[m.group(2)].append(m.group(1))
    return found


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__.strip().splitlines()[-2])
    out, writer, prefix, cc = argv[1], argv[2], argv[3], argv[4:]
    hdf5 = hdf5_of(writer)
    soname = hdf5 and needed_soname(hdf5, prefix)
    versions = versions_needed(hdf5, soname) if soname else []
    functions = functions_needed(hdf5, versions) if versions else {}
    if not any(functions.values()):   # nothing to stand in for (or unversioned)
        soname = "libscope-standin-unused-" + os.path.basename(prefix)
        functions = {}
    with tempfile.TemporaryDirectory() as tmp:
        source, script = os.path.join(tmp, "standin.c"), os.path.join(tmp, "standin.map")
        with open(source, "w") as f:
            f.write(f"/* stand-in for {soname}: made by make_standin.py */\n")
            for symbol in sorted(s for names in functions.values() for s in names):
                f.write(f"int {symbol}(void);\nint {symbol}(void) {{ return 0; }}\n")
        nodes = [f"{version} {{ global: {' '.join(n + ';' for n in names)} local: *; }};"
                 for version, names in functions.items() if names]
        with open(script, "w") as f:
            f.write("\n".join(nodes or ["{ local: *; };"]) + "\n")
        subprocess.run([*cc, "-shared", "-fPIC", "-O2", "-o", out, source,
                        "-Wl,-soname," + soname, "-Wl,--version-script," + script],
                       check=True)


if __name__ == "__main__":
    main(sys.argv)
