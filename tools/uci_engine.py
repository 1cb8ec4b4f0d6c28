"""A UCI engine driven over a pipe, for the development tools
(tools/fsf_label.py, tools/tactics_suite.py); not used by the build or CI."""
import subprocess


class Engine:
    def __init__(self, path, variant="janggi", hash_mb=64):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(token):
                return line

    def go(self, fen, depth):
        """(score, bestmove, pv) of `go depth`: score is ('cp', n) or
        ('mate', n) from the side to move's view (None if none was given),
        from the last exact `info … score` line."""
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        score, pv = None, []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            t = line.split()
            if t and t[0] == "info" and "score" in t:
                i = t.index("score")
                if t[i + 1] in ("cp", "mate") and "lowerbound" not in t and "upperbound" not in t:
                    score = (t[i + 1], int(t[i + 2]))
                    pv = t[t.index("pv") + 1:] if "pv" in t else []
            if t and t[0] == "bestmove":
                return score, t[1] if len(t) > 1 else None, pv

    def score(self, fen, depth):
        """The score alone (see `go`)."""
        return self.go(fen, depth)[0]

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()
