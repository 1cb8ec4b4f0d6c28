#!/usr/bin/env python3
"""Reference perft counts from Fairy-Stockfish's Python bindings (pyffish),
for adding positions to perft/extra.epd. Development only: `pip install pyffish`.

Usage: python3 tools/pyffish_perft.py "FEN" MAXDEPTH [MAXNODES]
Prints an EPD line with counts for both models (casual = janggicasual,
fsf = janggi). pyffish applies the double-pass and bikjang ends itself when
given the move history.
"""
import sys
import pyffish as sf


def perft(variant, fen, moves, depth):
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def main():
    fen, maxd = sys.argv[1], int(sys.argv[2])
    maxn = int(sys.argv[3]) if len(sys.argv) > 3 else 300_000
    for model, variant in (("casual", "janggicasual"), ("fsf", "janggi")):
        parts = []
        for d in range(1, maxd + 1):
            n = perft(variant, fen, [], d)
            parts.append(f";D{d} {n}")
            if n > maxn:
                break
        print(f"{model}: {fen} {' '.join(parts)}")


if __name__ == "__main__":
    main()
