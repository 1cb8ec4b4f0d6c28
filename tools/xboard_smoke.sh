#!/usr/bin/env bash
# The real-GUI check of the CECP (XBoard/WinBoard) dialect: one short
# engine-vs-engine Janggi game in a real XBoard window under Xvfb.
#
#   tools/xboard_smoke.sh [ENGINE] [OUT_DIR]
#
# ENGINE defaults to target/release/janggi-engine (built if missing),
# OUT_DIR to target/xboard-smoke. Installs nothing: it needs `xboard` and
# `Xvfb` (Debian packages xboard, xvfb) and, for the screenshot, `import`
# (imagemagick). Exit codes: 0 the game finished cleanly; 1 it did not
# (forfeit, illegal move, engine error, no result in time); 77 a tool is
# missing (callers treat that as "skipped").
#
# It plays `-variant janggi -mode TwoMachines` with legality testing off
# (XBoard's own Janggi move rules are incomplete: it refuses the soldier's
# sideways step), 10 s + 0.1 s a move per side, draws adjudicated after 120
# moves, no move animation, each engine's `Move Overhead` at 100 ms (set
# through XBoard's option command), with XBoard's debug log. From the log it checks that a result
# came, that no side forfeited, lost on time or sent an illegal move, and that no
# `Illegal move` / `Error (` answer appeared, and that XBoard relayed no
# move with a promotion suffix; it saves screenshots of the opening
# (`OUT_DIR/xboard-start.png`) and of the final position
# (`OUT_DIR/xboard.png`).
set -euo pipefail
cd "$(dirname "$0")/.."

ENGINE="${1:-target/release/janggi-engine}"
OUT="${2:-target/xboard-smoke}"
TIMEOUT_S="${XBOARD_SMOKE_TIMEOUT:-150}"
# Debian installs xboard in /usr/games, which is not always on PATH.
export PATH="$PATH:/usr/games"

for tool in xboard Xvfb; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "xboard_smoke: skipped: '$tool' not found (Debian packages: xboard xvfb)"
    exit 77
  fi
done
if [ ! -x "$ENGINE" ]; then
  cargo build --release
fi
ENGINE="$(cd "$(dirname "$ENGINE")" && pwd)/$(basename "$ENGINE")"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
LOG="$OUT/xboard-debug.log"
rm -f "$LOG" "$OUT/xboard.png" "$OUT/game.pgn"

# A free display number.
DISPLAY_NUM=99
while [ -e "/tmp/.X11-unix/X$DISPLAY_NUM" ] || [ -e "/tmp/.X$DISPLAY_NUM-lock" ]; do
  DISPLAY_NUM=$((DISPLAY_NUM + 1))
done
Xvfb ":$DISPLAY_NUM" -screen 0 1024x768x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
XBOARD_PID=""
cleanup() {
  if [ -n "$XBOARD_PID" ]; then kill "$XBOARD_PID" 2>/dev/null || true; fi
  kill "$XVFB_PID" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY=":$DISPLAY_NUM"
for _ in $(seq 50); do
  [ -e "/tmp/.X11-unix/X$DISPLAY_NUM" ] && break
  sleep 0.1
done

# What a user types, plus the debug log, a PGN and no pop-ups.
xboard -variant janggi -mode TwoMachines -testLegality false \
  -fcp "$ENGINE" -fd "$OUT" -scp "$ENGINE" -sd "$OUT" \
  -tc 0:10 -inc 0.1 -adjudicateDrawMoves 120 \
  -debug -nameOfDebugFile "$LOG" -saveGameFile "$OUT/game.pgn" \
  -popupExitMessage false -popupMoveErrors false -autoCallFlag true \
  -animateMoving false -flashCount 0 \
  -firstOptions "Move Overhead=100" -secondOptions "Move Overhead=100" \
  -boardSize medium -showCoords true >"$OUT/xboard.out" 2>&1 &
XBOARD_PID=$!
# The board as the game starts (every piece on it), once XBoard is up.
( sleep 4; command -v import >/dev/null 2>&1 &&
    import -window root -trim +repage "$OUT/xboard-start.png" 2>/dev/null || true ) &

# XBoard logs GameEnds(result, "reason", whosent) when a game ends (and
# once at start-up, before the game): the first one after "New game".
game_end() {
  awk '/^New game/ { on = 1 } on && /^GameEnds\(/ { print; found = 1; exit } END { exit !found }' "$LOG"
}

start=$(date +%s)
finished=""
while [ $(($(date +%s) - start)) -lt "$TIMEOUT_S" ]; do
  if ! kill -0 "$XBOARD_PID" 2>/dev/null; then
    break
  fi
  if [ -f "$LOG" ] && game_end >/dev/null; then
    finished=yes
    break
  fi
  sleep 1
done
sleep 1
elapsed=$(($(date +%s) - start))
if command -v import >/dev/null 2>&1; then
  import -window root -trim +repage "$OUT/xboard.png" 2>/dev/null || true
fi

# What a failure needs to be understood from a CI log alone: each side's
# lowest clock (XBoard's `time`, centiseconds), how long XBoard took to
# pass a move on (a received `move` to the next `time` it sent), and the
# last clock exchanges.
diagnose() {
  [ -f "$LOG" ] || return 0
  awk '/>(first|second) *: time / { side = ($2 ~ /first/) ? "first" : "second";
         if (!(side in low) || $NF < low[side]) low[side] = $NF }
       /<(first|second) *: move / { t = $1 }
       t && />(first|second) *: time / { d = $1 - t; n++; sum += d; if (d > max) max = d; t = 0 }
       END { for (s in low) printf "  lowest clock %s: %d cs\n", s, low[s];
             if (n) printf "  XBoard relay: %d moves, mean %.1f ms, max %d ms\n", n, sum / n, max }' "$LOG"
  echo "  last clock exchanges:"
  grep -E ">(first|second) *: (time|otim) |<(first|second) *: move " "$LOG" | tail -12 | sed 's/^/    /'
}

fail() {
  echo "xboard_smoke: FAILED after ${elapsed}s: $*"
  diagnose
  echo "  debug log: $LOG"
  exit 1
}
[ -f "$LOG" ] || fail "no debug log (XBoard did not start; see $OUT/xboard.out)"
[ -n "$finished" ] || fail "no game result within ${TIMEOUT_S}s"
# The line XBoard logs at the end: GameEnds(result, "reason", whosent).
ends="$(game_end)"
moves="$(grep -c ": move " "$LOG" || true)"
echo "xboard_smoke: $ends after ${elapsed}s, $moves engine moves"
if grep -Eqi "forfeit|illegal move|Error \(|xboard: .*error|crash|disconnect|lost.*connection" "$LOG"; then
  # With the lines before each hit: the move XBoard relayed, as it sent it.
  grep -Ein -B4 -A1 "forfeit|illegal move|Error \(|crash|disconnect" "$LOG" | head -24
  fail "forfeit, illegal move or engine error in the log"
fi
[ "$moves" -ge 10 ] || fail "only $moves engine moves"
# XBoard relays a move with a suffix only when it promoted the piece on
# its own board (a soldier in its Pawn slot reaching the last rank turned
# into an invisible Queen, `g1g0.`, and XBoard's board lost it): Janggi
# has no promotion, so any suffix means XBoard's board and the engines'
# have parted.
# (XBoard writes `usermove ` and the move separately: the log shows
# `usermove 25872 >first : g1g0.`.)
PROMOTED=": usermove ([0-9]+ >(first|second) *: )?[a-i][0-9][a-i][0-9][^0-9 [:space:]]"
if grep -Eq "$PROMOTED" "$LOG"; then
  grep -En "$PROMOTED" "$LOG" | head -4
  fail "XBoard promoted a piece (its board no longer matches the game)"
fi
case "$ends" in
  *"on time"*) fail "a side lost on time: $ends" ;;
esac
# The result as the engines claimed it (XBoard relays it as `result …`).
result="$(grep -m1 -E ">(first|second): result (1-0|0-1|1/2-1/2)" "$LOG" || true)"
[ -n "$result" ] || fail "the game did not end with a result: $ends"
echo "xboard_smoke: ${result#*: }"
if [ -f "$OUT/xboard.png" ]; then
  echo "xboard_smoke: screenshot $OUT/xboard.png"
fi
diagnose
echo "xboard_smoke: ok"
