"""The operator console: a web page on the gateway (`edge-agent console`, its own process).

`users` (the users file, argon2 hashes, roles), `security` (sessions, CSRF tokens, the failed-login limit),
`bridge` (the console's MQTT v5 client of the daemon's API), `history` (the run log and job queue, read-only),
`web` (the aiohttp application: pages, JSON, server-sent events, downloads). docs/console.md says why.
"""
