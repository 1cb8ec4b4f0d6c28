#!/usr/bin/env python3
"""Sum up janggi-match PGN files for one engine: the numbers a strength row
in docs/strength.md states.

Development tool (not used by the build or CI). Reads the PGN that
`janggi-match --pgnout` writes (tags `White`/`Black`/`Result`/`Opening`/
`Termination`, move comments `{+1.61/16 3.064s}` or `{+M3/20 0.5s}`) and
prints for ENGINE:

* W-L-D over all games, as Cho and as Han, and over complete colour pairs
  only (both games of an `Opening` tag finished; several files, e.g. the
  parts of one row played with `start=`, are read as one match);
* the score and Elo with the 95 % interval (cutechess-cli's formula, as
  janggi-match's stats.rs prints it);
* terminations, time losses of each side (for the opponent's, how far
  ahead we already were), clock used a game per side and
  the longest single move (for byoyomi: how near a period it came);
* mean depth and time a move per side over the first N moves of each side
  (`--first`, default 30);
* for byoyomi games (`TimeControl` `tc=MAIN byoyomi=MSxN`): per side, how
  many moves the main time lasted, and the moves after it: their number,
  mean time and share of the period, the longest, and how many took longer
  than a period (each of those used one up);
* for ENGINE's losses ended by a rule (not by checkmate): the worst of its
  own last K scores (`--last`, default 6) before the end, to show whether a
  loss on the count came from a playable position.

    python3 tools/match_report.py --engine janggi-gen5 part1.pgn part2.pgn

Exit code 2 when a file cannot be read or has no game of ENGINE.
"""
import argparse
import math
import re
import sys
from collections import Counter, defaultdict

Z95 = 1.959963984540054
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
COMMENT = re.compile(r"\{([^}]*)\}")
SCORE = re.compile(r"^([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)\s+([\d.]+)s$")
TIME_ONLY = re.compile(r"^([\d.]+)s$")
BYOYOMI = re.compile(r"tc=([\d.]+)(?:\+[\d.]+)?\s+byoyomi=(\d+)x(\d+)")


def byoyomi_of(tags):
    """(main seconds, period seconds) of a byoyomi TimeControl tag, or None."""
    m = BYOYOMI.search(tags.get("TimeControl", ""))
    if not m:
        return None
    return float(m.group(1)), int(m.group(2)) / 1000.0


def byoyomi_moves(times, main):
    """Splits one side's move times by the clock: (moves the main time
    lasted, times of the moves made wholly in byoyomi). The move that ran
    out of main time is in neither."""
    left = main
    in_main = 0
    after = []
    for t in times:
        if left > 0:
            if t <= left:
                in_main += 1
            left -= t
        else:
            after.append(t)
    return in_main, after


def games_of(text):
    """Yields (tags, [comment, ...]) for each game of a PGN text."""
    tags, body = {}, []
    for line in text.splitlines():
        m = TAG.match(line)
        if m:
            if body and tags:
                yield tags, COMMENT.findall(" ".join(body))
                tags, body = {}, []
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            body.append(line)
    if tags:
        yield tags, COMMENT.findall(" ".join(body))


def parse_move(comment):
    """(score in pawns or None, is_mate, depth or None, seconds or None)."""
    c = comment.strip()
    m = SCORE.match(c)
    if m:
        sign = -1.0 if m.group(1) == "-" else 1.0
        mate = m.group(2) == "M"
        value = float(m.group(3))
        # A mate is worth more than any material score; nearer is larger.
        score = sign * (1000.0 - value) if mate else sign * value
        return score, mate, int(m.group(4)), float(m.group(5))
    m = TIME_ONLY.match(c)
    if m:
        return None, False, None, float(m.group(1))
    return None, False, None, None


def elo(score):
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(w, l, d):
    n = w + l + d
    if n == 0:
        return None
    s = (w + d / 2) / n
    var = (w / n) * (1 - s) ** 2 + (d / n) * (0.5 - s) ** 2 + (l / n) * (0 - s) ** 2
    margin = Z95 * math.sqrt(var / n)
    return elo(s), elo(max(s - margin, 1e-9)), elo(min(s + margin, 1 - 1e-9)), s


def fmt_tally(name, w, l, d):
    n = w + l + d
    if n == 0:
        return f"{name}: no games"
    e = elo_interval(w, l, d)
    if not all(abs(x) < 3000 for x in e[:3]):
        # The interval reaches a score of 0 or 1: no finite Elo bound
        # (janggi-match prints nan there).
        return (
            f"{name}: {w}-{l}-{d} over {n} games, {100 * e[3]:.1f} %, "
            f"Elo {e[0]:+.1f} (95 % interval unbounded: too few games)"
        )
    return (
        f"{name}: {w}-{l}-{d} over {n} games, {100 * e[3]:.1f} %, "
        f"Elo {e[0]:+.1f} (95 %: {e[1]:+.1f} to {e[2]:+.1f}; "
        f"+- {(e[2] - e[1]) / 2:.1f})"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True, help="the engine's name in White/Black")
    ap.add_argument("--first", type=int, default=30, help="moves per side for depth/time")
    ap.add_argument("--last", type=int, default=6, help="own scores looked at before a loss")
    ap.add_argument("pgn", nargs="+")
    a = ap.parse_args()

    games = []
    for path in a.pgn:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 2
        for tags, comments in games_of(text):
            if a.engine not in (tags.get("White"), tags.get("Black")):
                continue
            if tags.get("Result") not in ("1-0", "0-1", "1/2-1/2"):
                continue  # unfinished or aborted
            games.append((path, tags, comments))
    if not games:
        print(f"no finished game of {a.engine} in {' '.join(a.pgn)}", file=sys.stderr)
        return 2

    def our_result(tags):
        ours_white = tags["White"] == a.engine
        r = tags["Result"]
        if r == "1/2-1/2":
            return "D"
        return "W" if (r == "1-0") == ours_white else "L"

    total = Counter()
    by_colour = {"Cho": Counter(), "Han": Counter()}
    pairs = defaultdict(list)
    terms = Counter()
    loss_terms = Counter()
    time_losses = Counter()
    clock = {"ours": [], "theirs": []}
    longest = {"ours": 0.0, "theirs": 0.0}
    depth = {"ours": [], "theirs": []}
    secs = {"ours": [], "theirs": []}
    rule_losses = []
    their_time_losses = []
    byo = {"ours": {"main": [], "after": []}, "theirs": {"main": [], "after": []}}
    period = None
    for path, tags, comments in games:
        res = our_result(tags)
        ours_white = tags["White"] == a.engine
        total[res] += 1
        by_colour["Cho" if ours_white else "Han"][res] += 1
        pairs[tags.get("Opening", f"{path}:{tags.get('FEN', '')}")].append(res)
        term = tags.get("Termination", "?").split(";")[0].strip()
        terms[term] += 1
        if res == "L":
            loss_terms[term] += 1
        if "time" in term.lower():
            # The side that lost on time is the one that lost the game.
            loser = "ours" if res == "L" else "theirs"
            time_losses[loser] += 1
        moves = [parse_move(c) for c in comments]
        # The last comment is the result text when it does not parse.
        moves = [m for m in moves if m[3] is not None]
        # White (Cho) moves first: plies 0, 2, 4 … are White's.
        ours_parity = 0 if ours_white else 1
        used = {"ours": 0.0, "theirs": 0.0}
        seen = {"ours": 0, "theirs": 0}
        own_scores = []
        for i, (score, _mate, d, t) in enumerate(moves):
            side = "ours" if i % 2 == ours_parity else "theirs"
            used[side] += t
            longest[side] = max(longest[side], t)
            if d is not None and seen[side] < a.first:
                depth[side].append(d)
                secs[side].append(t)
            seen[side] += 1
            if side == "ours" and score is not None:
                own_scores.append(score)
        clock["ours"].append(used["ours"])
        clock["theirs"].append(used["theirs"])
        bt = byoyomi_of(tags)
        if bt is not None:
            main_s, period = bt
            for side in ("ours", "theirs"):
                times = [m[3] for i, m in enumerate(moves) if (i % 2 == ours_parity) == (side == "ours")]
                lasted, after = byoyomi_moves(times, main_s)
                byo[side]["main"].append(lasted)
                byo[side]["after"].extend(after)
        if res == "L" and term != "checkmate":
            worst = min(own_scores[-a.last:]) if own_scores else None
            rule_losses.append((term, worst, tags.get("Opening", "?")))
        if res == "W" and "time" in term.lower():
            # Was the opponent's time loss a win taken from a level game?
            least = min(own_scores[-a.last:]) if own_scores else None
            their_time_losses.append((least, tags.get("Opening", "?")))

    print(f"{len(games)} finished games of {a.engine} in {len(a.pgn)} file(s)")
    print(fmt_tally("all games", total["W"], total["L"], total["D"]))
    for c in ("Cho", "Han"):
        t = by_colour[c]
        print(f"  as {c}: {t['W']}-{t['L']}-{t['D']}")
    full = Counter()
    npairs = 0
    for results in pairs.values():
        if len(results) == 2:
            npairs += 1
            for r in results:
                full[r] += 1
    print(fmt_tally(f"complete colour pairs ({npairs})", full["W"], full["L"], full["D"]))
    print("terminations: " + ", ".join(f"{k} {v}" for k, v in terms.most_common()))
    print(f"{a.engine}'s losses: " + ", ".join(f"{k} {v}" for k, v in loss_terms.most_common()))
    print(f"time losses: ours {time_losses['ours']}, the opponent's {time_losses['theirs']}")
    for side in ("ours", "theirs"):
        c = clock[side]
        d, s = depth[side], secs[side]
        print(
            f"{side}: clock used a game {sum(c) / len(c):.1f} s (max {max(c):.1f}), "
            f"longest move {longest[side]:.2f} s; "
            f"first {a.first} moves: depth {sum(d) / max(len(d), 1):.1f} "
            f"at {sum(s) / max(len(s), 1):.2f} s a move"
        )
    for side in ("ours", "theirs"):
        mains, after = byo[side]["main"], byo[side]["after"]
        if not mains:
            continue
        line = f"{side} byoyomi: main time lasted {sum(mains) / len(mains):.1f} moves a game; "
        if after:
            mean = sum(after) / len(after)
            over = sum(1 for t in after if t > period)
            line += (
                f"{len(after)} moves after it, {mean:.2f} s each ({100 * mean / period:.0f} % "
                f"of the {period:g} s period), longest {max(after):.2f} s, "
                f"{over} longer than a period"
            )
        else:
            line += "no move after it"
        print(line)
    if rule_losses:
        print(f"{a.engine}'s losses ended by a rule, worst own score of its last {a.last}:")
        for term, worst, opening in rule_losses:
            if worst is None:
                w = "no score"
            elif worst <= -900:
                w = "a mate against it"
            elif worst <= -200:
                # janggi-engine prints a rule win or loss it has seen as
                # about ±300 pawns (its RULE_WIN score).
                w = f"{worst:+.2f}: a decided loss (rule or mate) seen"
            else:
                w = f"{worst:+.2f}"
            print(f"  {term}: {w} ({opening})")
    if their_time_losses:
        print(f"the opponent's time losses, {a.engine}'s lowest own score of its last {a.last}:")
        for least, opening in their_time_losses:
            w = "no score" if least is None else f"{least:+.2f}"
            print(f"  {w} ({opening})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
