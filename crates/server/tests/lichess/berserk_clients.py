"""lichess's API on an Arbiter server, driven by a real lichess client: berserk (PyPI).

Run by crates/server/tests/lichess_clients.sh against a fresh `arbiter serve`:

    python berserk_clients.py http://127.0.0.1:PORT

Each check plays real games through berserk's own methods (no hand-made requests, except
the native sign-up and token creation, which are Arbiter's). Exit status 0 when all pass.
"""

import queue
import sys
import threading
import time
import uuid

import berserk
import chess
import requests

BASE = sys.argv[1].rstrip("/")
PASSWORD = "correct horse battery"
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", flush=True)
    else:
        print(f"ok: {what}", flush=True)


class Player:
    """An account with a browser-like session and a berserk client on a token."""

    def __init__(self, prefix, scopes=("board:play", "challenge:read", "challenge:write")):
        self.name = f"{prefix}{uuid.uuid4().hex[:6]}"
        self.web = requests.Session()
        r = self.web.post(f"{BASE}/api/account", json={"username": self.name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        r = self.web.post(f"{BASE}/api/account/tokens",
                          json={"description": "berserk", "scopes": list(scopes)})
        assert r.status_code in (200, 201), r.text
        self.token = r.json()["token"]
        self.client = berserk.Client(session=berserk.TokenSession(self.token), base_url=BASE)


def events(player, out):
    """Follow the player's event stream into a queue (a daemon thread)."""
    def run():
        for ev in player.client.board.stream_incoming_events():
            out.put(ev)
    threading.Thread(target=run, daemon=True).start()


def wait_for(q, kind, timeout=15, pred=lambda e: True):
    end = time.time() + timeout
    while time.time() < end:
        try:
            ev = q.get(timeout=max(0.1, end - time.time()))
        except queue.Empty:
            break
        if ev.get("type") == kind and pred(ev):
            return ev
    raise AssertionError(f"no {kind} event within {timeout} s")


def states(client_api, game_id):
    """The game stream's events in a queue."""
    q = queue.Queue()

    def run():
        for ev in client_api.stream_game_state(game_id):
            q.put(ev)
        q.put({"type": "end-of-stream"})
    threading.Thread(target=run, daemon=True).start()
    return q


def board_seeks_pair_and_play_to_mate():
    a, b = Player("seekA"), Player("seekB")
    qa, qb = queue.Queue(), queue.Queue()
    events(a, qa)
    events(b, qb)
    time.sleep(0.5)
    threads = [threading.Thread(target=p.client.board.seek, args=(5, 3), daemon=True) for p in (a, b)]
    for t in threads:
        t.start()
        time.sleep(0.3)
    ga = wait_for(qa, "gameStart")["game"]
    gb = wait_for(qb, "gameStart")["game"]
    check(ga["gameId"] == gb["gameId"], "two Board API seeks pair each other into one game")
    for t in threads:
        t.join(timeout=10)
    check(not any(t.is_alive() for t in threads), "both seek requests end once paired")
    gid = ga["gameId"]
    white, black = (a, b) if ga["color"] == "white" else (b, a)
    st = states(white.client.board, gid)
    full = st.get(timeout=10)
    check(full["type"] == "gameFull" and full["clock"]["initial"] == 300000
          and full["clock"]["increment"] == 3000, "gameFull first, with the clock in ms (5+3)")
    board = chess.Board()
    for i, uci in enumerate(["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]):
        (white if i % 2 == 0 else black).client.board.make_move(gid, uci)
        board.push_uci(uci)
    last = None
    while True:
        ev = st.get(timeout=10)
        if ev["type"] == "end-of-stream":
            break
        last = ev
    check(last is not None and last["status"] == "mate" and last.get("winner") == "white",
          "Scholar's mate ends the game: status mate, winner white")
    check(last["moves"].split() == [m.uci() for m in board.move_stack],
          "the moves are space-separated UCI, as python-chess has them")
    check(last.get("arbiter", {}).get("article") == "5.1.1", "the extra field names Art. 5.1.1")
    fin = wait_for(qa, "gameFinish", pred=lambda e: e["game"]["gameId"] == gid)
    check(fin["game"]["status"]["name"] == "mate", "gameFinish on the event stream")
    try:
        white.client.board.make_move(gid, "a2a3")
        check(False, "a move after the end is refused")
    except berserk.exceptions.ResponseError as e:
        check(e.status_code == 400, "a move after the end is refused with 400")


def challenge_draw_declined_then_resignation():
    a, b = Player("chalA"), Player("chalB")
    qa, qb = queue.Queue(), queue.Queue()
    events(a, qa)
    events(b, qb)
    time.sleep(0.5)
    c = a.client.challenges.create(b.name, rated=False, clock_limit=300, clock_increment=3, color="white")
    check(c["status"] == "created" and c["destUser"]["name"] == b.name, "a challenge is created")
    inc = wait_for(qb, "challenge", pred=lambda e: e["challenge"]["id"] == c["id"])
    check(inc["challenge"]["challenger"]["name"] == a.name, "the challenged player's stream shows it")
    mine = b.client.challenges.get_mine()
    check(any(x["id"] == c["id"] for x in mine["in"]), "GET /api/challenge lists it as incoming")
    b.client.challenges.accept(c["id"])
    gs = wait_for(qa, "gameStart")["game"]
    check(gs["gameId"] == c["id"], "the game's id is the challenge's id")
    check(gs["color"] == "white" and gs["source"] == "friend", "the challenger has the colour asked for")
    gid = c["id"]
    st = states(b.client.board, gid)
    st.get(timeout=10)
    a.client.board.make_move(gid, "e2e4")
    b.client.board.make_move(gid, "c7c5")
    a.client.board.offer_draw(gid)
    offered = None
    for _ in range(10):
        ev = st.get(timeout=10)
        if ev.get("wdraw"):
            offered = ev
            break
    check(offered is not None, "the draw offer shows as wdraw in the game state")
    b.client.board.decline_draw(gid)
    declined = None
    for _ in range(10):
        ev = st.get(timeout=10)
        if ev["type"] == "gameState" and not ev.get("wdraw"):
            declined = ev
            break
    check(declined is not None and declined["status"] == "started", "the offer declined, play goes on")
    try:
        b.client.board.accept_takeback(gid)
        check(False, "a takeback is refused")
    except berserk.exceptions.ResponseError as e:
        check(e.status_code == 400, "a takeback is refused with 400 (a completed move stands, Art. 4.7)")
    b.client.board.post_message(gid, "good game")
    chat = a.client.board.get_game_chat(gid)
    check(any(l["text"] == "good game" and l["user"] == b.name for l in chat), "chat lines are kept")
    b.client.board.resign_game(gid)
    end = None
    while True:
        ev = st.get(timeout=10)
        if ev["type"] == "end-of-stream":
            break
        if ev["type"] == "gameState":
            end = ev
    check(end is not None and end["status"] == "resign" and end.get("winner") == "white",
          "a resignation: status resign, winner white")
    # A challenge declined.
    c2 = a.client.challenges.create(b.name, rated=False, clock_limit=180, clock_increment=2)
    b.client.challenges.decline(c2["id"], reason="later")
    d = wait_for(qa, "challengeDeclined", pred=lambda e: e["challenge"]["id"] == c2["id"])
    check(d["challenge"]["declineReasonKey"] == "later", "a declined challenge tells its reason")
    try:
        a.client.challenges.create(a.name, rated=False, clock_limit=180, clock_increment=2)
        check(False, "challenging oneself is refused")
    except berserk.exceptions.ResponseError as e:
        check(e.status_code == 400, "challenging oneself is a 400")


def bot_upgraded_and_playing():
    bot = Player("bot", scopes=("bot:play",))
    human = Player("human")
    bot.client.account.upgrade_to_bot()
    me = bot.client.account.get()
    check(me.get("title") == "BOT", "an account with no games becomes a BOT")
    qb = queue.Queue()

    def run():
        for ev in bot.client.bots.stream_incoming_events():
            qb.put(ev)
    threading.Thread(target=run, daemon=True).start()
    time.sleep(0.5)
    c = human.client.challenges.create(bot.name, rated=False, clock_limit=60, clock_increment=1, color="black")
    ev = wait_for(qb, "challenge", pred=lambda e: e["challenge"]["id"] == c["id"])
    bot.client.bots.accept_challenge(ev["challenge"]["id"])
    wait_for(qb, "gameStart", pred=lambda e: e["game"]["gameId"] == c["id"])
    st = states(bot.client.bots, c["id"])
    full = st.get(timeout=10)
    check(full["white"]["title"] == "BOT", "the bot plays White with the title BOT")
    bot.client.bots.make_move(c["id"], "d2d4")
    human.client.board.make_move(c["id"], "d7d5")
    bot.client.bots.post_message(c["id"], "hello from the bot")
    saw = set()
    for _ in range(10):
        e = st.get(timeout=10)
        if e["type"] == "gameState" and e["moves"] == "d2d4 d7d5":
            saw.add("moves")
        if e["type"] == "chatLine" and e["text"] == "hello from the bot":
            saw.add("chat")
        if saw == {"moves", "chat"}:
            break
    check(saw == {"moves", "chat"}, "the bot's stream has the moves and its chat line")
    try:
        bot.client.board.seek(5, 3)
        check(False, "a bot cannot seek")
    except berserk.exceptions.ResponseError as e:
        check(e.status_code in (400, 403), "a bot cannot seek (Board API)")
    bot.client.bots.resign_game(c["id"])


def tokens_and_scopes():
    p = Player("scope", scopes=("challenge:read",))
    info = p.client.oauth.test_tokens(p.token, "lip_nonsense")
    check(info[p.token]["userId"] == p.name.lower() and info["lip_nonsense"] is None,
          "token test: the user and scopes of a good token, null for a bad one")
    try:
        p.client.board.seek(5, 3)
        check(False, "a token without board:play cannot seek")
    except berserk.exceptions.ResponseError as e:
        check(e.status_code == 403, "a token without board:play is refused with 403")
    try:
        p.client.board.make_move("anygame1234", "e2e4")
        check(False, "a token without board:play cannot move")
    except berserk.exceptions.ResponseError as e:
        check(e.status_code == 403, "a token without board:play cannot move (403)")
    r = requests.post(f"{BASE}/api/account/tokens", json={"description": "x", "scopes": []},
                      headers={"Authorization": f"Bearer {p.token}"})
    check(r.status_code == 403, "a token cannot mint a token")


def rated_challenge_changes_ratings():
    a, b = Player("ratedA"), Player("ratedB")
    qa = queue.Queue()
    events(a, qa)
    time.sleep(0.5)
    c = a.client.challenges.create(b.name, rated=True, clock_limit=180, clock_increment=2, color="white")
    check(c["rated"] is True and c["speed"] == "blitz", "a rated blitz challenge")
    b.client.challenges.accept(c["id"])
    wait_for(qa, "gameStart", pred=lambda e: e["game"]["gameId"] == c["id"])
    # Fool's mate: Black mates on the fourth ply (Art. 5.1.1).
    for i, uci in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
        (a if i % 2 == 0 else b).client.board.make_move(c["id"], uci)
    fin = wait_for(qa, "gameFinish", pred=lambda e: e["game"]["gameId"] == c["id"])["game"]
    check(fin["status"]["name"] == "mate" and fin.get("winner") == "black", "the rated game ends in mate")
    check(isinstance(fin.get("ratingDiff"), int) and fin["ratingDiff"] < 0,
          "the loser's rating change is in gameFinish")
    me = a.client.account.get()
    check(me["perfs"]["blitz"]["games"] == 1, "the rated game counts in the account's perfs")


for test in [tokens_and_scopes, board_seeks_pair_and_play_to_mate,
             challenge_draw_declined_then_resignation, bot_upgraded_and_playing,
             rated_challenge_changes_ratings]:
    try:
        test()
    except Exception as e:  # a crash is a failure with its reason
        FAILURES.append(f"{test.__name__}: {type(e).__name__}: {e}")
        print(f"FAIL: {test.__name__}: {type(e).__name__}: {e}", flush=True)

if FAILURES:
    print(f"{len(FAILURES)} failed", flush=True)
    sys.exit(1)
print("all lichess client checks passed", flush=True)
