#!/usr/bin/env python3
"""Adds an oracle engine's evaluation to each line of an `arbiter-tune extract` file.

    label-positions.py --engine /usr/games/stockfish --nodes 4000 --jobs 2 IN OUT

Each line `FEN;result;game` becomes `FEN;result;game;cp`, cp from White's side after a
search of NODES nodes (a mate counts as +-3000). Lines are written as they are labelled (in
no particular order), so an interrupted run leaves a usable file.
"""
import argparse
import subprocess
import sys
import threading
import time

MATE_CP = 3000


class Uci:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(token):
                return line

    def evaluate(self, fen, nodes):
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith("bestmove"):
                return score
            if line.startswith("info") and " score " in line:
                f = line.split()
                i = f.index("score")
                if f[i + 1] == "cp":
                    score = int(f[i + 2])
                elif f[i + 1] == "mate":
                    m = int(f[i + 2])
                    score = MATE_CP if m > 0 else -MATE_CP

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--nodes", type=int, default=4000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("input")
    ap.add_argument("output")
    a = ap.parse_args()
    lines = [l.strip() for l in open(a.input) if l.strip()]
    out = open(a.output, "w")
    lock = threading.Lock()
    done = [0]
    start = time.time()

    def work(chunk):
        eng = Uci([a.engine])
        for line in chunk:
            fen = line.split(";")[0]
            cp = eng.evaluate(fen, a.nodes)
            if cp is None:
                continue
            if fen.split()[1] == "b":
                cp = -cp
            with lock:
                out.write(f"{line};{cp}\n")
                done[0] += 1
                if done[0] % 5000 == 0:
                    out.flush()
                    rate = done[0] / (time.time() - start)
                    print(f"{done[0]}/{len(lines)} ({rate:.0f}/s)", file=sys.stderr, flush=True)
        eng.close()

    threads = [threading.Thread(target=work, args=(lines[k::a.jobs],)) for k in range(a.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.close()


if __name__ == "__main__":
    main()
