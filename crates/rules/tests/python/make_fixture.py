#!/usr/bin/env python3
"""Picks a small fixture from a gen_games.py output: for every rule, the game that reaches it
soonest, cut right after the ply where it occurs; then whole games up to about 300 plies.

Usage: make_fixture.py IN.jsonl OUT.jsonl

Made with: gen_games.py --games 2000 --seed 7 --out /tmp/g.jsonl; make_fixture.py /tmp/g.jsonl
tests/vectors/python-chess-games.jsonl
"""

import json
import sys


def features(rec):
    """The rules this ply shows."""
    out = set()
    for key in ("check", "mate", "stalemate", "insuf", "rep3", "rep5", "fifty", "seventyfive",
                "claim3", "claim50"):
        if rec[key]:
            out.add(key)
    if rec["c960"]:
        out.add("c960")
    sans = [san for _, san in rec["moves"]]
    if any("O-O" in s for s in sans):
        out.add("c960-castling" if rec["c960"] else "castling")
    if any("=" in s for s in sans):
        out.add("promotion")
    if rec["fen"].split(" ")[3] != "-":
        out.add("en-passant")  # python-chess writes the square only if the capture is legal
    if rec["insuf_w"] != rec["insuf_b"]:
        out.add("insufficient-one-side")
    return out


def main():
    src, dst = sys.argv[1], sys.argv[2]
    games = {}
    for line in open(src, encoding="utf-8"):
        rec = json.loads(line)
        games.setdefault(rec["g"], []).append(rec)
    wanted = ["c960-castling", "castling", "promotion", "en-passant", "check", "mate",
              "stalemate", "insuf", "insufficient-one-side", "rep3", "rep5", "claim3",
              "fifty", "claim50", "seventyfive"]
    picked = []  # (game id, plies kept)
    covered = set()
    for feature in wanted:
        if feature in covered:
            continue
        best = None
        for gid, recs in games.items():
            for i, rec in enumerate(recs):
                if feature in features(rec):
                    if best is None or i < best[1]:
                        best = (gid, i)
                    break
        if best is None:
            print(f"no game shows {feature}", file=sys.stderr)
            continue
        gid, last = best
        recs = games.pop(gid)[: last + 1]
        for rec in recs:
            covered |= features(rec)
        picked.append(recs)
    # Then whole games, in order, up to a few hundred plies.
    for gid in sorted(games):
        if sum(len(r) for r in picked) >= 300:
            break
        picked.append(games[gid])
    with open(dst, "w", encoding="utf-8") as out:
        for new_id, recs in enumerate(picked):
            for rec in recs:
                rec = dict(rec, g=new_id)
                if rec is recs[-1] or rec["ply"] == recs[-1]["ply"]:
                    rec["played"] = None
                out.write(json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n")
    print(f"{len(picked)} games, {sum(len(r) for r in picked)} plies, covers {sorted(covered)}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
