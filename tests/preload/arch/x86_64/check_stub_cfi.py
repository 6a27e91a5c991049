#!/usr/bin/env python3
"""check_stub_cfi.py: the unwind rules of scope's hand-written stubs follow
the stack pointer at every instruction.

A signal can land at any instruction of the entry and exit stubs; an
unwinder stopped there (a handler's call-site capture, a crash backtrace)
finds the caller only if the CFA rule in .eh_frame moves with every push,
pop and stack adjustment. This disassembles each stub of LIB (objdump),
replays its stack-pointer changes from the CFA the stub starts with, and
compares with the rule readelf decodes at each instruction, wherever the
CFA is rsp-based. usage: check_stub_cfi.py LIB
"""
import re
import subprocess
import sys

STUBS = ["scope_entry_common", "scope_enter_function", "scope_exit_stub",
         "scope_call_saving_fpu"]


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def symbols(lib):
    found = {}
    for line in run("nm", lib).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] in STUBS:
            found[parts[2]] = int(parts[0], 16)
    return found


def instructions(lib, name):
    """(address, mnemonic, operands) of the function NAME."""
    text = run("objdump", "-d", "--no-show-raw-insn", "--disassemble=" + name, lib)
    out = []
    for line in text.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if m:
            out.append((int(m.group(1), 16), m.group(2), m.group(3).split("#")[0].strip()))
    return out


def cfa_rows(lib):
    """address -> CFA rule text, for every row of every FDE."""
    rows = {}
    for line in run("readelf", "--debug-dump=frames-interp", lib).splitlines():
        m = re.match(r"([0-9a-f]{16})\s+(\S+)", line)
        if m:
            rows[int(m.group(1), 16)] = m.group(2)
    return rows


def rule_at(rows, addr):
    best = max((a for a in rows if a <= addr), default=None)
    return rows[best] if best is not None else None


def rsp_change(mnemonic, operands):
    """How many bytes the instruction moves rsp down (None: it does not)."""
    if mnemonic == "push":
        return 8
    if mnemonic == "pop":
        return -8
    m = re.fullmatch(r"(sub|add)\s+\$0x([0-9a-f]+),%rsp", mnemonic + " " + operands)
    if m:
        n = int(m.group(2), 16)
        return n if m.group(1) == "sub" else -n
    m = re.fullmatch(r"lea\s+(-?)0x([0-9a-f]+)\(%rsp\),%rsp", mnemonic + " " + operands)
    if m:
        n = int(m.group(2), 16)
        return n if m.group(1) else -n
    return None


def main():
    lib = sys.argv[1]
    addrs = symbols(lib)
    missing = [s for s in STUBS if s not in addrs]
    if missing:
        print("FAIL: %s not found in %s" % (", ".join(missing), lib))
        return 1
    rows = cfa_rows(lib)
    bad = checked = 0
    for name in STUBS:
        insns = instructions(lib, name)
        first = rule_at(rows, insns[0][0])
        m = re.fullmatch(r"rsp\+(\d+)", first or "")
        if not m:
            print("FAIL: %s starts without an rsp-based CFA (%s)" % (name, first))
            return 1
        offset = int(m.group(1))
        targets = {}       # address -> stack offset, of the jumps seen
        reachable = True   # falls through from the previous instruction
        for addr, mnemonic, operands in insns:
            if addr in targets:
                offset, reachable = targets[addr], True
            if not reachable:
                continue   # data between the instructions (the exit marker)
            rule = rule_at(rows, addr)
            if not (rule and rule.startswith("rsp+")):
                offset = None   # an rbp-based rule: nothing to replay
                continue
            if offset is None:
                offset = int(rule[4:])   # rsp-based again (after an rbp-based stretch)
            checked += 1
            if int(rule[4:]) != offset:
                print("FAIL: %s+%#x (%s %s): CFA %s, the stack says rsp+%d"
                      % (name, addr - insns[0][0], mnemonic, operands, rule, offset))
                bad += 1
            change = rsp_change(mnemonic, operands)
            jump = re.match(r"j\w*\s+([0-9a-f]+) <", mnemonic + " " + operands)
            if jump:
                targets[int(jump.group(1), 16)] = offset
            if mnemonic in ("jmp", "ret"):
                reachable = False
            elif change is not None:
                offset += change
            elif operands.endswith(",%rsp"):
                offset = None   # rsp set some other way: the rule must say how
    print("%d instructions checked, %d with a wrong CFA" % (checked, bad))
    if checked < 20:
        print("FAIL: too few instructions checked")
        return 1
    return 1 if bad else 0


sys.exit(main())
