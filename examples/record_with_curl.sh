#!/usr/bin/env bash
# Record one streamed Messages call with curl through `course serve --record`,
# then replay it from the cassette with `course serve`: no network, no key.
#
#   ANTHROPIC_API_KEY=... examples/record_with_curl.sh https://api.anthropic.com answer.json
#
# Prints the streamed answer twice: as it came through the proxy, then as
# replayed. COURSE is the command that runs course (default: course).
set -euo pipefail
upstream=$1
cassette=$2
course=${COURSE:-course}
logs=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$logs"' EXIT

base_url() { # the URL the server prints on its first line, once it listens
  for _ in $(seq 200); do
    url=$(sed -n '1s/^course serve: \(http[^ ]*\).*/\1/p' "$logs/out")
    if [ -n "$url" ]; then echo "$url"; return; fi
    sleep 0.05
  done
  echo "course serve did not start: $(cat "$logs/err")" >&2
  exit 1
}

ask() { # one streamed call, written out as it arrives
  curl --silent --show-error --no-buffer --max-time 30 "$1/v1/messages" \
    -H "x-api-key: ${ANTHROPIC_API_KEY:-replaying-needs-no-key}" \
    -H "anthropic-version: 2023-06-01" \
    -H "content-type: application/json" \
    -d '{"model": "claude-sonnet-4-5", "max_tokens": 64, "stream": true,
         "messages": [{"role": "user", "content": [{"type": "text", "text": "What is 20 + 22?"}]}]}'
}

stop() {
  kill -TERM "$server"
  wait "$server" || true # 143: stopped by SIGTERM, as asked
  server=
}

$course serve "$cassette" --record --upstream "$upstream" >"$logs/out" 2>"$logs/err" &
server=$!
ask "$(base_url)"
stop

$course serve "$cassette" >"$logs/out" 2>"$logs/err" &
server=$!
ask "$(base_url)"
stop
