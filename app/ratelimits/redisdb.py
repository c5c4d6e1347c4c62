"""Rate limits in Redis: one sorted set of event times per key, checked and updated by one
Lua script (atomic across every process and host), timed by the Redis server's clock."""

from __future__ import annotations

import math
import uuid

from redis import Redis

PREFIX = "tapequiz:ratelimit:"
HIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return false
"""


class RedisStore:
    name = "redis"

    def __init__(self, url: str) -> None:
        self.redis = Redis.from_url(url, decode_responses=True, socket_timeout=5)
        self._hit = self.redis.register_script(HIT)

    def hit(self, key: str, *, limit: int, window: float) -> int | None:
        left = self._hit(keys=[PREFIX + key], args=[window, limit, uuid.uuid4().hex])
        return None if left is None else max(1, math.ceil(float(left)))
