#!/usr/bin/env python3
"""Where an engine's lost games turned, read from both engines' own scores.

    python3 tools/loss_turn.py FILE.pgn ENGINE [THRESHOLD]

For each game ENGINE lost in a janggi-match PGN (each move's comment holds
the mover's own score, `{+1.42/20 2.004s}`), the script finds:

* the first move at which the opponent's score reached +THRESHOLD (default
  2.5 pawns) and the first at which ENGINE's score fell to -THRESHOLD;
* ENGINE's first score of the game (how the opening left it).

Each loss is then put in a class:

* `opponent first`: the opponent saw the game turn at least one move
  before ENGINE did (ENGINE misjudged or did not see it: evaluation or
  search depth);
* `sudden`: ENGINE's score fell from level or better (>= -0.1 over its
  three moves before) to -THRESHOLD within three moves (a tactic missed
  by both, or found by the opponent at the same moment);
* `together`: both saw it at the same move, not sudden;
* `ours first`: ENGINE's score reached -THRESHOLD before the opponent's
  reached +THRESHOLD (or the opponent's never did), not sudden;
* `never`: ENGINE's score never reached -THRESHOLD (a rule ended it first).

A loss can be `opponent first` and `sudden` at once; it is then counted as
both (the summary says so). The opening's own judgement is listed apart:
a first score of -1.1 or worse means the book position was already bad
for ENGINE by its own reading.

Development tool, not part of the engine or of CI (docs/strength.md, "The
lead against the clock").
"""

import sys

from match_report import games_of, parse_move  # tools/ is on the path


def scores(tags, comments):
    """(ENGINE-side list, opponent-side list) of (move number, score) pairs,
    per side in the order played, scores in pawns from the mover's view."""
    fen = tags.get("FEN", "")
    cho_first = len(fen.split()) < 2 or fen.split()[1] == "w"
    cho, han = [], []
    for ply, comment in enumerate(comments):
        score, _mate, _depth, _secs = parse_move(comment)
        if score is None:
            continue
        by_cho = (ply % 2 == 0) == cho_first
        (cho if by_cho else han).append((ply // 2 + 1, score))
    return cho, han


def first(seq, pred):
    for move, score in seq:
        if pred(score):
            return move
    return None


def classify(ours, theirs, threshold):
    """The classes of one loss and the numbers they rest on."""
    ours_at = first(ours, lambda s: s <= -threshold)
    theirs_at = first(theirs, lambda s: s >= threshold)
    classes = []
    if ours_at is None:
        classes.append("never")
    else:
        if theirs_at is not None and theirs_at < ours_at:
            classes.append("opponent first")
        idx = next(i for i, (m, _) in enumerate(ours) if m == ours_at)
        before = [s for _, s in ours[max(0, idx - 5) : max(0, idx - 2)]]
        if before and min(before) >= -0.1:
            classes.append("sudden")
        if not classes:
            same = theirs_at is not None and theirs_at == ours_at
            classes.append("together" if same else "ours first")
    return classes, ours_at, theirs_at


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    path, engine = argv[1], argv[2]
    threshold = float(argv[3]) if len(argv) == 4 else 2.5
    with open(path, encoding="utf-8") as f:
        text = f.read()
    counts, losses, bad_openings = {}, 0, 0
    for tags, comments in games_of(text):
        result = tags.get("Result")
        white, black = tags.get("White"), tags.get("Black")
        if engine not in (white, black) or result not in ("1-0", "0-1"):
            continue
        cho = white == engine
        if (result == "1-0") == cho:
            continue  # a win
        losses += 1
        cho_scores, han_scores = scores(tags, comments)
        ours, theirs = (cho_scores, han_scores) if cho else (han_scores, cho_scores)
        classes, ours_at, theirs_at = classify(ours, theirs, threshold)
        for c in classes:
            counts[c] = counts.get(c, 0) + 1
        opening_score = ours[0][1] if ours else None
        if opening_score is not None and opening_score <= -1.1:
            bad_openings += 1
        gap = ""
        if ours_at is not None and theirs_at is not None:
            gap = f" (opponent {ours_at - theirs_at:+d} moves)"
        print(
            f"round {tags.get('Round', '?'):>3} {tags.get('Opening', '?'):<20} "
            f"{'Cho' if cho else 'Han'} {tags.get('Termination', '?').split(';')[0]:<16} "
            f"first score {opening_score if opening_score is not None else '?':>6} "
            f"ours <= -{threshold} at {ours_at}, theirs >= +{threshold} at {theirs_at}{gap}: "
            + ", ".join(classes)
        )
    print(f"{engine}: {losses} losses; " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"first score -1.1 or worse (the opening already bad by its own reading): {bad_openings}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
