#!/usr/bin/env python3
"""Mutation check for the move generator (in the spirit of the sibling chess
engine's devnote): break one rule at a time in a scratch copy of the crate,
run the perft suites, and report which positions and depths catch it.

Usage:  python3 tools/mutation_check.py [--max-nodes N] [--only NAME]

The project tree is never modified: each mutant is built in
/tmp/janggi-mutants/<name> with its own target directory.
"""
import argparse, os, re, shutil, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> (file, old text, new text, description)
MUTANTS = {
    "cannon-jumps-cannon": ("src/rules/movegen.rs",
        "screened = p.kind != PieceKind::Cannon;", "screened = true;",
        "a cannon may jump over a cannon"),
    "cannon-captures-cannon": ("src/rules/movegen.rs",
        "if capturable(p, us) && p.kind != PieceKind::Cannon && kind != GenKind::Quiets {",
        "if capturable(p, us) && kind != GenKind::Quiets {",
        "a cannon may capture a cannon"),
    "elephant-second-point-ignored": ("src/rules/movegen.rs",
        "if self.board[j.leg1.index()].is_none() && self.board[j.leg2.index()].is_none() {",
        "if self.board[j.leg1.index()].is_none() {",
        "the elephant's second point is not checked"),
    "horse-leg-ignored": ("src/rules/movegen.rs",
        "            if self.board[j.leg.index()].is_none() {\n                self.push_if",
        "            if true {\n                self.push_if",
        "the horse's leg is not checked"),
    "palace-diagonal-from-side-midpoint": ("src/rules/tables.rs",
        "                if let Some(n) = s.offset(DIAG[d].0, DIAG[d].1) {\n                    if palace_diagonal_step(s, n) {",
        "                if let Some(n) = s.offset(DIAG[d].0, DIAG[d].1) {\n                    if in_palace(n) {",
        "general/guard may step diagonally from side midpoints"),
    "soldier-diagonal-in-own-palace": ("src/rules/tables.rs",
        "if in_palace(s) && !in_own_palace(s, color) {", "if in_palace(s) {",
        "soldiers use palace diagonals in their own palace too"),
    "pass-allowed-in-check": ("src/rules/legal.rs",
        "        if !in_check || bikjang_rule {\n            list.push(Move::PASS);",
        "        if true {\n            list.push(Move::PASS);",
        "the pass is legal in check"),
    "facing-generals-is-check": ("src/rules/legal.rs",
        "if (risky && self.leaves_general_attacked(mv)) || (bikjang_rule && self.facing_after(mv))",
        "if (risky && self.leaves_general_attacked(mv)) || self.facing_after(mv)",
        "moving into facing generals is illegal (as if it were check)"),
    "no-discovered-cannon-screen": ("src/rules/legal.rs",
        "|| danger.to.contains(mv.to());", ";",
        "a move that creates a cannon screen is not re-checked"),
    "line-diagonal-from-side-midpoint": ("src/rules/tables.rs",
        "                if !palace_diagonal_step(cur, n) {\n                    break;\n                }",
        "                if !palace_diagonal_step(cur, n) && !(in_palace(n) && in_palace(cur)) {\n                    break;\n                }",
        "chariots and cannons move diagonally between any adjacent palace points"),
}


def run(cmd, cwd, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-nodes", type=int, default=2_500_000)
    ap.add_argument("--only")
    ap.add_argument("--rev", help="take the crate from this git revision instead of the work tree")
    args = ap.parse_args()
    base = "/tmp/janggi-mutants"
    os.makedirs(base, exist_ok=True)
    env = dict(os.environ, CARGO_PROFILE_RELEASE_LTO="false", CARGO_PROFILE_RELEASE_CODEGEN_UNITS="16")
    for name, (path, old, new, desc) in MUTANTS.items():
        if args.only and name != args.only:
            continue
        d = os.path.join(base, name)
        shutil.rmtree(os.path.join(d, "src"), ignore_errors=True)
        os.makedirs(d, exist_ok=True)
        if args.rev:
            arch = subprocess.run(["git", "archive", args.rev], cwd=ROOT, capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", d], input=arch.stdout, check=True)
        else:
            for item in ["Cargo.toml", "Cargo.lock", "src", "perft", "benches"]:
                src = os.path.join(ROOT, item)
                dst = os.path.join(d, item)
                if os.path.isdir(src):
                    shutil.rmtree(dst, ignore_errors=True)
                    shutil.copytree(src, dst)
                elif os.path.exists(src):
                    shutil.copy(src, dst)
        f = os.path.join(d, path)
        text = open(f).read()
        if text.count(old) != 1:
            print(f"## {name}: pattern not found exactly once in {path}; skipped")
            continue
        open(f, "w").write(text.replace(old, new))
        b = run(["cargo", "build", "--release", "--bin", "janggi-engine"], d, env)
        if b.returncode != 0:
            print(f"## {name}: build failed\n{b.stderr[-2000:]}")
            continue
        exe = os.path.join(d, "target/release/janggi-engine")
        print(f"## {name}: {desc}")
        for model in ["casual", "fsf"]:
            r = run([exe, "perft", "--suite", f"perft/{model}.epd", "--model", model,
                     "--max-nodes", str(args.max_nodes), "--threads", "2"], d)
            mism = [l for l in r.stdout.splitlines() if l.startswith("MISMATCH")]
            caught = sorted({(int(m.split()[1][1:]), int(m.split()[3].rstrip(":"))) for m in mism})
            summary = [l for l in r.stdout.splitlines() if l.startswith("suite")]
            print(f"   {model}: {summary[0] if summary else r.stdout[-300:]}")
            if caught:
                shallow = min(dep for _, dep in caught)
                first = [f"#{i} d{dep}" for i, dep in caught if dep == shallow][:8]
                print(f"   {model}: caught by {len({i for i, _ in caught})} positions; "
                      f"shallowest depth {shallow}: {', '.join(first)}")
            else:
                print(f"   {model}: NOT CAUGHT")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
