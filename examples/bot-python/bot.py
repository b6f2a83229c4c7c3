#!/usr/bin/env python3
"""An example sshuffle bot: Python's standard library only.

It runs the ssh client as a subprocess (ssh -T ... bot), reads the server's
JSON Lines from its output and writes its own to its input, and plays
simple legal moves: of the actions each state lists, the kind it likes best.
The protocol is in docs/bots.md. Make the key's account a bot once:

    ssh-keygen -t ed25519 -N '' -f bot_key
    ssh -i bot_key -p 2222 pybot@HOST bot register
    python3 examples/bot-python/bot.py --host HOST --port 2222 --user pybot --key bot_key \\
        --seek kings --against easy,easy --matches 3

Without --seek it waits for people to challenge it from the table lobby.
"""

import argparse
import json
import subprocess
import sys
import time


def choose(game, legal):
    """The first of the legal actions of the kind liked best.

    Spite and Malice: a pay-off card to a centre stack (that wins), else any
    card to a centre stack, else a discard. Kings in the Corner: a card, else
    a pile move, and ending the turn last.
    """
    def score(a):
        if game == "spite" and a.get("do") == "play" and a.get("from") == "payoff":
            return 3
        if a.get("do") == "play":
            return 2
        if a.get("do") in ("move", "discard"):
            return 1
        return 0
    best = legal[0]
    for a in legal:
        if score(a) > score(best):
            best = a
    return best


def main():
    p = argparse.ArgumentParser(description="An example sshuffle bot.")
    p.add_argument("--host", default="localhost")
    p.add_argument("--port", type=int, default=2222)
    p.add_argument("--user", required=True, help="the bot account's name")
    p.add_argument("--key", default="bot_key", help="the bot's private key")
    p.add_argument("--seek", default="", help="open tables of this game (spite or kings)")
    p.add_argument("--settings", default="")
    p.add_argument("--against", default="person", help="the other seats: person, easy, normal, hard")
    p.add_argument("--pace", default="", help="the computers' pace: steady, quick or instant")
    p.add_argument("--matches", type=int, default=0, help="matches to play; 0: forever")
    p.add_argument("--any-host-key", action="store_true",
                   help="trust whatever host key the server shows (a server on your own machine)")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args()

    cmd = ["ssh", "-T", "-i", args.key, "-p", str(args.port), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes"]
    if args.any_host_key:
        cmd += ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"]
    cmd += [args.user + "@" + args.host, "bot"]
    ssh = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def log(*a):
        if not args.quiet:
            print(*a, file=sys.stderr, flush=True)

    gap, last = 0.0, 0.0

    def send(msg):
        # The server reads at most limits.linesPerSecond lines a second.
        nonlocal last
        wait = last + gap - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        last = time.monotonic()
        ssh.stdin.write(json.dumps(msg) + "\n")
        ssh.stdin.flush()

    def seek():
        msg = {"type": "seek", "game": args.seek, "settings": args.settings,
               "against": [w for w in args.against.split(",") if w]}
        if args.pace:
            msg["pace"] = args.pace
        send(msg)

    games, seats, acted = {}, {}, {}
    matches = played = won = rejected = errors = 0
    status = 1
    for line in ssh.stdout:
        m = json.loads(line)
        t = m.get("type")
        if t == "hello":
            log("connected as", m["account"]["name"])
            gap = 1.0 / m["limits"]["linesPerSecond"] + 0.001
            if args.seek:
                seek()
        elif t == "ping":
            send({"type": "pong", "id": m["id"]})
        elif t == "challenge":
            log("challenged by", m["from"], "to", m["game"])
            send({"type": "accept", "id": m["id"]})
        elif t == "tableStart":
            games[m["table"]], seats[m["table"]] = m["game"], m["seat"]
            log("table", m["table"], "deals", m["game"], "; we sit in seat", m["seat"] + 1)
        elif t == "state":
            if m["yourTurn"] and m["legal"] and acted.get(m["table"]) != m["version"]:
                acted[m["table"]] = m["version"]
                send({"type": "act", "table": m["table"], "action": choose(games.get(m["table"]), m["legal"])})
        elif t == "rejected":
            rejected += 1
            log("rejected:", m["reason"])
        elif t == "gameOver":
            played += 1
            if m["winner"] == seats.get(m["table"]):
                won += 1
            log("game over at", m["table"], "winner seat", m["winner"], "points", m["points"], "record", m["record"])
            if m["matchOver"]:
                matches += 1
                if args.matches and matches >= args.matches:
                    status = 0
                    break
                if args.seek:
                    seek()
        elif t == "tableEnd":
            log("left table", m["table"] + ":", m["reason"])
        elif t == "error":
            errors += 1
            log("the server says:", m["error"])
            if m.get("in") == "seek" and args.seek:
                # Most likely the lobby's pace: try again in a moment.
                time.sleep(1)
                seek()
    ssh.stdin.close()
    ssh.wait()
    print("matches %d, games %d, won %d, rejected %d, errors %d" % (matches, played, won, rejected, errors))
    return status


if __name__ == "__main__":
    sys.exit(main())
