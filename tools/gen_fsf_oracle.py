#!/usr/bin/env python3
"""Generate Janggi oracle data from Fairy-Stockfish via its Python bindings (pyffish).

Usage
-----
    pip install pyffish            # tested with pyffish 0.0.90 (FSF "230826 LB")
    python3 tools/gen_fsf_oracle.py                      # all 4 variants -> tests/data/
    python3 tools/gen_fsf_oracle.py --variants janggi    # just one variant
    python3 tools/gen_fsf_oracle.py --out-dir /tmp/x --max-bytes 200000 --seed 7
    python3 tools/gen_fsf_oracle.py --perft              # print small perft checks and exit

For each variant (janggi, janggitraditional, janggimodern, janggicasual) it plays
seeded, fully deterministic random games from a fixed list of start positions, using
a handful of move-selection "styles" that provoke the interesting endings (bikjang,
double pass, repetition, perpetual check, the janggimodern move-repetition rule, the
n-move rule, checkmate).  A game is only written if its ending category is still
below its quota, so rare endings are well represented.  Output goes to
<out-dir>/fsf_oracle_<variant>.txt (kept under --max-bytes, default 290000).

The script needs nothing but pyffish and the Python standard library.  The output
depends only on the seed and the pyffish version (FSF is deterministic here).

File format (also written as '#' comments at the top of every file)
-------------------------------------------------------------------
    game <variant> <start fen: the rest of the line, 6 space-separated fields>
    style <style name>                      (informational only)
    moves <m1> <m2> ... <mN>                (all N moves of the game, UCI; may be empty)
    legal <k> <sorted legal moves after the first k moves>   (zero or more lines)
    material <cho> <han>                    (FSF weighted material at the final position)
    flags imm <0|1> <v> opt <0|1> <v> nlegal <n>   (final position, see below)
    end <kind> <value> <reason> <stm> <winner>

* Moves are UCI squares a1..i10 (file a-i, rank 1-10, rank 1 = Cho/White side).
  A pass is the side's general square twice, e.g. e2e2 or e9e9 or d10d10.
* `legal` lists are sorted by plain byte-wise string order (Python sorted(),
  identical to Rust's sort of Strings).  An empty list (game over) is "legal <k>".
* No position before the final one is game-ending: the game was stopped at the
  first ply where pyffish reported an immediate end, an optional end, or no legal
  moves.  (To save time, is_optional_game_end is only queried at plies where the
  halfmove clock is high, the position occurred earlier in the window, or, for
  janggimodern, the mover's last two moves undo each other / the older is a pass;
  optional ends are impossible elsewhere.)
* flags: imm = pyffish.is_immediate_game_end, opt = pyffish.is_optional_game_end
  at the final position; the value is printed as 0 when the flag is 0 (pyffish
  returns an uninitialised value in that case).  nlegal = number of legal moves.
* end kind: `immediate` (is_immediate_game_end true), `optional`
  (is_optional_game_end true; immediate takes precedence), `nomoves` (no legal
  move and no immediate end; value = pyffish.game_result), `none` (ply cap hit).
  value: FSF score relative to the side to move at the final position:
  32000 = side to move wins, -32000 = side to move loses, 0 = draw.
  stm: side to move at the final position (w = Cho, b = Han).
  winner: w, b or draw (derived from value and stm).
  reason (the script's classification, cross-checked against the value):
  bikjang, double-pass, repetition, perpetual-check, move-repetition (the
  janggimodern back-and-forth rule), move-rule (n-move rule), checkmate,
  stalemate, ply-limit.
* material: sum over pieces of chariot 13, cannon 7, horse 5, elephant 3,
  advisor 3, soldier 2 (general 0), for Cho and Han.  FSF's janggi material
  counting says Cho wins iff cho - han - 1 > 0 (i.e. Han gets 1.5 deom).
"""

import argparse
import os
import random
import re
import sys
import zlib

try:
    import pyffish as sf
except ImportError:  # pragma: no cover
    sys.exit("pyffish is not installed: pip install pyffish")

VARIANTS = ["janggi", "janggitraditional", "janggimodern", "janggicasual"]

START_FENS = [
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ANBR w - - 0 1",
    "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
    "r3k4/4a4/9/p3p3p/9/9/P3P3P/9/4A4/R3K4 w - - 0 1",
    "3ak4/4a4/4c4/2p3p2/9/9/2P3P2/4C4/4A4/3AK4 b - - 0 1",
    "2b1ka3/9/4n4/p7p/9/9/P7P/4N4/9/2BK1A3 w - - 0 1",
    "1r2k4/9/9/9/9/9/9/9/3K5/5R3 w - - 0 1",
    "3k5/4a4/9/9/9/9/9/4C4/9/R2K1R3 w - - 0 1",
    "r2k1r3/9/3c5/9/9/9/9/9/4A4/4K4 b - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/RR3K3 w - - 0 1",
    "R3k4/9/9/9/9/9/9/9/9/5K3 b - - 0 1",
]

STYLES = ["random", "aggressive", "shuffle", "passer", "bikjang", "checker", "quiet", "hunter", "perpetual",
          "mixed"]

# Endings each style mostly aims at (random and mixed are always played).
STYLE_TARGETS = {
    "passer": ["double-pass"],
    "bikjang": ["bikjang", "double-pass"],
    "shuffle": ["repetition", "move-repetition", "perpetual-check"],
    "quiet": ["move-rule"],
    "hunter": ["checkmate"],
    "aggressive": ["checkmate"],
    "checker": ["perpetual-check", "checkmate"],
    "perpetual": ["perpetual-check", "checkmate"],
    "random": ["bikjang", "double-pass", "repetition", "move-rule", "checkmate"],
    "mixed": ["bikjang", "double-pass", "repetition", "move-rule", "checkmate"],
}

# Half-move (ply) caps per variant; modern needs 200 capture-free plies for its move rule.
PLY_CAP = {"janggi": 260, "janggitraditional": 260, "janggimodern": 420, "janggicasual": 260}
NFOLD = {"janggi": 3, "janggitraditional": 3, "janggimodern": 4, "janggicasual": 3}
NMOVE = {"janggi": 50, "janggitraditional": 50, "janggimodern": 100, "janggicasual": 50}
HAS_BIKJANG = {"janggi": True, "janggitraditional": True, "janggimodern": False, "janggicasual": False}

QUOTA_BASE = {
    "bikjang": 10,
    "double-pass": 10,
    "repetition": 8,
    "perpetual-check": 4,
    "move-repetition": 8,
    "move-rule": 3,
    "checkmate": 6,
    "stalemate": 2,
    "ply-limit": 1,
}

VALUES = {"r": 13, "c": 7, "n": 5, "b": 3, "e": 3, "a": 3, "p": 2, "k": 0}
FILES = "abcdefghi"
MOVE_RE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


# ----------------------------------------------------------------------------
# Tiny board model (only what the move chooser / classifier needs)
# ----------------------------------------------------------------------------

def parse_fen(fen):
    board = {}
    rows = fen.split()[0].split("/")
    for i, row in enumerate(rows):
        rank = 10 - i
        f = 0
        num = ""
        for ch in row + " ":
            if ch.isdigit():
                num += ch
                continue
            if num:
                f += int(num)
                num = ""
            if ch == " ":
                break
            board[(f, rank)] = ch
            f += 1
    return board, fen.split()[1]


def parse_move(m):
    g = MOVE_RE.match(m)
    return (FILES.index(g.group(1)), int(g.group(2))), (FILES.index(g.group(3)), int(g.group(4)))


def apply_move(board, m):
    a, b = parse_move(m)
    if a == b:
        return board
    nb = dict(board)
    nb[b] = nb.pop(a)
    return nb


def is_pass(m):
    a, b = parse_move(m)
    return a == b


def kings(board):
    K = k = None
    for sq, pc in board.items():
        if pc == "K":
            K = sq
        elif pc == "k":
            k = sq
    return K, k


def facing(board):
    """Generals on the same file with nothing in between (bikjang geometry)."""
    K, k = kings(board)
    if K is None or k is None or K[0] != k[0]:
        return False
    lo, hi = sorted((K[1], k[1]))
    return all((K[0], r) not in board for r in range(lo + 1, hi))


def material(board):
    cho = sum(VALUES[p.lower()] for p in board.values() if p.isupper())
    han = sum(VALUES[p] for p in board.values() if p.islower())
    return cho, han


def pos_key(board, stm):
    return (tuple(sorted(board.items())), stm)


# ----------------------------------------------------------------------------
# Game play
# ----------------------------------------------------------------------------

def choose_move(rng, style, legal, board, stm, moves, variant, start, cur_fen):
    us_upper = stm == "w"
    passes = [m for m in legal if is_pass(m)]
    normal = [m for m in legal if not is_pass(m)]
    if not normal:
        return passes[0]
    if style == "mixed":
        style = rng.choice(STYLES[:-1])

    def captures():
        return [m for m in normal if parse_move(m)[1] in board]

    # Standing in bikjang geometry: often pass (ends the game where bikjang counts).
    if passes and facing(board):
        p = {"bikjang": 0.7, "passer": 0.5}.get(style, 0.15)
        if rng.random() < p:
            return passes[0]

    # The opponent just passed: sometimes pass back (double pass).
    if passes and moves and is_pass(moves[-1]):
        p = {"passer": 0.6, "bikjang": 0.3}.get(style, 0.08)
        if rng.random() < p:
            return passes[0]

    if passes:
        p = {"passer": 0.25, "bikjang": 0.04, "shuffle": 0.03}.get(style, 0.01)
        if rng.random() < p:
            return passes[0]

    # Shuffle back and forth: undo our own previous move when possible.
    if len(moves) >= 2 and not is_pass(moves[-2]):
        a, b = parse_move(moves[-2])
        rev = FILES[b[0]] + str(b[1]) + FILES[a[0]] + str(a[1])
        p = {"shuffle": 0.8, "checker": 0.5, "random": 0.1, "passer": 0.2}.get(style, 0.05)
        if rev in normal and rng.random() < p:
            return rev

    if style == "bikjang":
        K, k = kings(board)
        own = "K" if us_upper else "k"
        cands = [m for m in normal if board.get(parse_move(m)[0]) == own
                 and facing(apply_move(board, m))]
        if cands and rng.random() < 0.8:
            return rng.choice(cands)

    if style == "perpetual":
        # the stronger side keeps checking (preferably undoing its last move),
        # the weaker side shuffles back and forth
        cho, han = material(board)
        rev = None
        if len(moves) >= 2 and not is_pass(moves[-2]):
            a, b = parse_move(moves[-2])
            rev = FILES[b[0]] + str(b[1]) + FILES[a[0]] + str(a[1])
        if (cho > han) == us_upper:
            if rev in normal and sf.gives_check(variant, cur_fen, [rev]) and rng.random() < 0.9:
                return rev
            checks = [m for m in normal if sf.gives_check(variant, cur_fen, [m])]
            if checks:
                return rng.choice(checks)
        elif rev in normal and rng.random() < 0.8:
            return rev
        return rng.choice(normal)

    if style == "hunter":
        # the side with more material hunts for mate (full mate-in-one scan),
        # the other side plays randomly
        cho, han = material(board)
        if (cho > han) == us_upper:
            for m in normal:
                if not sf.legal_moves(variant, cur_fen, [m]):
                    return m
            style = "aggressive"
        else:
            style = "random"

    if style in ("aggressive", "checker"):
        # mate in one among a sample of candidate moves
        caps = captures()
        sample = caps + rng.sample(normal, min(len(normal), 10))
        seen = set()
        for m in sample:
            if m in seen:
                continue
            seen.add(m)
            if not sf.legal_moves(variant, cur_fen, [m]):
                return m
        if style == "checker":
            checks = [m for m in rng.sample(normal, min(len(normal), 12))
                      if sf.gives_check(variant, cur_fen, [m])]
            if checks and rng.random() < 0.85:
                return rng.choice(checks)
        if caps and rng.random() < 0.85:
            return max(caps, key=lambda m: (VALUES[board[parse_move(m)[1]].lower()], rng.random()))

    caps = captures()
    if style == "quiet":
        # avoid captures (aims at the n-move rule); rarely shuffle
        quiet = [m for m in normal if m not in caps]
        return rng.choice(quiet or normal)
    if caps and rng.random() < 0.5:
        return rng.choice(caps)
    return rng.choice(normal)


def reverse(m):
    a, b = parse_move(m)
    return FILES[b[0]] + str(b[1]) + FILES[a[0]] + str(a[1])


def kakao_repetition(moves, board_hist, end, incheck_fn):
    """Independent re-implementation of the janggimodern back-and-forth rule as
    described in docs/fsf-janggi-rules.md (used only to label endings)."""
    n = len(moves)
    M = lambda k: moves[n - 1 - 2 * k] if n - 1 - 2 * k >= 0 else None
    before_in_check = lambda k: incheck_fn(n - 1 - 2 * k)
    m0, m1 = M(0), M(1)
    if m0 is None or m1 is None or is_pass(m0) or end < 4:
        return False
    piece = board_hist[n][parse_move(m0)[1]]
    if piece in "KkAa" or before_in_check(0) or before_in_check(1):
        return False
    if m1 == reverse(m0):
        chain, last = [M(0), M(1), M(2), M(3)], 4
    elif is_pass(m1):
        chain, last = [M(0), M(2), M(3), M(4)], 5
    else:
        return False
    if end < 2 * last:
        return False
    if any(c is None for c in chain) or M(last) is None:
        return False
    for k in range(2, last + 1):  # no check before the older moves of the pattern
        if 2 * k + 1 <= end and before_in_check(k):
            return False
    for x, y in zip(chain, chain[1:]):
        if y != reverse(x):
            return False
    ml = M(last)
    idx = n - 1 - 2 * last
    captured = parse_move(ml)[1] in board_hist[idx] and not is_pass(ml)
    return not captured and parse_move(chain[-1])[0] == parse_move(ml)[1]


def classify(variant, start, moves, board, stm, kind, value, halfmove, key_hist, incheck_fn, board_hist):
    """Return the script's guess of why the game ended."""
    if kind == "none":
        return "ply-limit"
    if kind == "nomoves":
        return "checkmate" if incheck_fn(len(moves)) else "stalemate"
    if kind == "immediate":
        if moves and is_pass(moves[-1]) and HAS_BIKJANG[variant] and facing(board):
            return "bikjang"
        if len(moves) >= 2 and is_pass(moves[-1]) and is_pass(moves[-2]):
            return "double-pass"
        return "immediate-other"
    # optional
    if halfmove >= 2 * NMOVE[variant]:
        return "move-rule"
    n = len(moves)
    if variant == "janggimodern" and kakao_repetition(moves, board_hist, min(halfmove, n), incheck_fn):
        return "move-repetition"
    cur = key_hist[n]
    window = min(halfmove, n)
    occ = [i for i in range(n - 2, n - window - 1, -2) if i >= 0 and key_hist[i] == cur]
    if len(occ) + 1 >= NFOLD[variant]:
        j = occ[NFOLD[variant] - 2]
        them = all(incheck_fn(i) for i in range(n, j - 1, -2))
        us = all(incheck_fn(i) for i in range(n - 1, j, -2))
        if them != us:
            return "perpetual-check-by-" + ("them" if them else "us")
        return "repetition"
    return "optional-other"


def play_game(variant, start, style, rng):
    moves = []
    board, stm = parse_fen(start)
    key_hist = [pos_key(board, stm)]
    board_hist = [board]
    samples = {}
    halfmove = int(start.split()[4])
    cap = PLY_CAP[variant]
    # sample rate so that a game yields roughly 10-20 regular samples
    every = rng.choice([7, 9, 11, 13])
    check_cache = {}

    def incheck(i):
        if i not in check_cache:
            check_cache[i] = sf.gives_check(variant, start, moves[:i])
        return check_cache[i]

    while True:
        n = len(moves)
        legal = sf.legal_moves(variant, start, moves)
        interesting = (n % every == 0 or facing(board) or (moves and is_pass(moves[-1])))
        if interesting:
            samples[n] = legal
        imm = sf.is_immediate_game_end(variant, start, moves) if not legal else (False, 0)
        # Ask FSF about optional ends only where one is possible at all: the
        # n-move clock is high, the position occurred before (needed for any
        # n-fold/perpetual end), or (janggimodern) the mover's last two moves
        # reverse each other or the older one is a pass (needed for its
        # back-and-forth rule).  This is a strict superset of FSF's conditions.
        maybe_opt = (halfmove >= 2 * NMOVE[variant]
                     or key_hist[n] in key_hist[max(0, n - halfmove):n]
                     or (variant == "janggimodern" and n >= 3
                         and (moves[-3] == reverse(moves[-1]) or is_pass(moves[-3]))))
        opt = sf.is_optional_game_end(variant, start, moves) if maybe_opt else (False, 0)
        if imm[0]:
            kind, value = "immediate", imm[1]
        elif opt[0]:
            kind, value = "optional", opt[1]
        elif not legal:
            kind, value = "nomoves", sf.game_result(variant, start, moves)
        elif n >= cap:
            kind, value = "none", 0
        else:
            # FEN of the current position, only needed by the mate/check-seeking styles
            cur_fen = sf.get_fen(variant, start, moves) if style in ("aggressive", "checker", "hunter", "perpetual", "mixed") else None
            m = choose_move(rng, style, legal, board, stm, moves, variant, start, cur_fen)
            if m not in legal:
                raise RuntimeError("chose illegal move")
            a, b = parse_move(m)
            halfmove = 0 if (a != b and b in board) else halfmove + 1
            board = apply_move(board, m)
            stm = "b" if stm == "w" else "w"
            moves.append(m)
            key_hist.append(pos_key(board, stm))
            board_hist.append(board)
            continue
        break

    # always sample the last few plies
    for i in range(max(0, len(moves) - 5), len(moves) + 1):
        if i not in samples:
            samples[i] = sf.legal_moves(variant, start, moves[:i])
    samples[len(moves)] = legal
    # sanity: our tracked board matches FSF's
    fen = sf.get_fen(variant, start, moves)
    fb, fstm = parse_fen(fen)
    fb = {sq: ("b" if p == "e" else "B" if p == "E" else p) for sq, p in fb.items()}
    tb = {sq: ("b" if p == "e" else "B" if p == "E" else p) for sq, p in board.items()}
    assert fb == tb and fstm == stm, (fen, board)
    assert int(fen.split()[4]) == halfmove, (fen, halfmove)

    reason = classify(variant, start, moves, board, stm, kind, value, halfmove, key_hist, incheck, board_hist)
    # Cross-check the classification against the rules as read from the FSF source.
    cho, han = material(board)
    counted = (32000 if cho - han - 1 > 0 else -32000) * (1 if stm == "w" else -1)
    by_material = counted if variant in ("janggi", "janggimodern") else 0
    expected = {
        "bikjang": by_material, "double-pass": by_material, "move-rule": by_material,
        "repetition": by_material, "perpetual-check-by-them": 32000,
        "perpetual-check-by-us": -32000, "move-repetition": 32000,
        "checkmate": -32000, "ply-limit": 0,
    }.get(reason)
    if expected != value:
        print("WARNING: %s %s %s: reason %s value %d expected %s" % (
            variant, start, " ".join(moves), reason, value, expected), file=sys.stderr)
        reason += "-UNEXPECTED"
    if reason.startswith("perpetual-check"):
        reason = "perpetual-check"
    if value > 0:
        winner = stm
    elif value < 0:
        winner = "b" if stm == "w" else "w"
    else:
        winner = "draw"
    return {
        "moves": moves,
        "samples": samples,
        "kind": kind,
        "value": value,
        "reason": reason,
        "stm": stm,
        "winner": winner,
        "material": material(board),
        "imm": imm,
        "opt": opt,
        "nlegal": len(legal),
    }


def header(variant):
    lines = __doc__.split("File format (also written as '#' comments at the top of every file)")[1]
    lines = lines.split("\n", 2)[2]
    out = [
        "# Fairy-Stockfish oracle data for variant '%s'" % variant,
        "# generated by tools/gen_fsf_oracle.py with pyffish %s (%s)" % (
            ".".join(map(str, sf.version())), sf.info()),
        "#",
    ]
    out += ["# " + l if l else "#" for l in lines.rstrip().split("\n")]
    return "\n".join(out) + "\n"


def format_game(variant, start, style, g):
    lines = ["game %s %s" % (variant, start), "style %s" % style,
             ("moves " + " ".join(g["moves"])).rstrip()]
    for k in sorted(g["samples"]):
        lines.append(("legal %d %s" % (k, " ".join(sorted(g["samples"][k])))).rstrip())
    lines.append("material %d %d" % g["material"])
    imm, opt = g["imm"], g["opt"]
    lines.append("flags imm %d %d opt %d %d nlegal %d" % (
        int(imm[0]), imm[1] if imm[0] else 0, int(opt[0]), opt[1] if opt[0] else 0, g["nlegal"]))
    lines.append("end %s %d %s %s %s" % (g["kind"], g["value"], g["reason"], g["stm"], g["winner"]))
    return "\n".join(lines) + "\n"


def generate(variant, out_dir, seed, max_bytes, max_games, log):
    quota = dict(QUOTA_BASE)
    if not HAS_BIKJANG[variant]:
        quota["bikjang"] = 0
    if variant != "janggimodern":
        quota["move-repetition"] = 0
    counts = {}
    attempts = {}
    text = header(variant)
    written = 0
    for i in range(max_games):
        if all(counts.get(c, 0) >= q for c, q in quota.items()):
            break
        start = START_FENS[i % len(START_FENS)]
        style = STYLES[(i // len(START_FENS) + i) % len(STYLES)]
        # skip styles whose target endings are all at quota (saves time; deterministic)
        targets = STYLE_TARGETS.get(style)
        if targets and all(counts.get(c, 0) >= quota[c] for c in targets):
            continue
        rng = random.Random(zlib.crc32(("%s/%d/%d" % (variant, seed, i)).encode()))
        g = play_game(variant, start, style, rng)
        r = g["reason"]
        if i % 25 == 24:
            log("%s: %d games tried, written %s" % (variant, i + 1, dict(sorted(counts.items()))))
        attempts[r] = attempts.get(r, 0) + 1
        if counts.get(r, 0) >= quota.get(r, 1):
            continue
        chunk = format_game(variant, start, style, g)
        if len(text) + len(chunk) > max_bytes:
            continue
        text += chunk
        counts[r] = counts.get(r, 0) + 1
        written += 1
        log("%s game %d style=%s plies=%d -> %s %s %s" % (
            variant, i, style, len(g["moves"]), g["kind"], g["value"], r))
    path = os.path.join(out_dir, "fsf_oracle_%s.txt" % variant)
    with open(path, "w") as f:
        f.write(text)
    return path, written, counts, attempts, len(text)


def perft(variant, fen, moves, depth):
    lm = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(lm)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in lm)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", nargs="*", default=VARIANTS)
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-bytes", type=int, default=290000)
    ap.add_argument("--max-games", type=int, default=160)
    ap.add_argument("--perft", action="store_true", help="print a few perft numbers and exit")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args()

    if args.perft:
        for fen, depth in (("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", 3), (START_FENS[0], 3)):
            for v in args.variants:
                print(v, fen, [perft(v, fen, [], d) for d in range(1, depth + 1)])
        return

    for fen in START_FENS:  # the side not to move must not be in check
        f = fen.split()
        f[1] = "b" if f[1] == "w" else "w"
        assert not sf.gives_check("janggi", " ".join(f), []), fen
    os.makedirs(args.out_dir, exist_ok=True)
    log = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    for v in args.variants:
        path, written, counts, attempts, size = generate(v, args.out_dir, args.seed, args.max_bytes, args.max_games, log)
        print("%s: %d games, %d bytes -> %s" % (v, written, size, os.path.normpath(path)))
        print("  written by reason:   %s" % dict(sorted(counts.items())))
        print("  attempted by reason: %s" % dict(sorted(attempts.items())))


if __name__ == "__main__":
    main()
