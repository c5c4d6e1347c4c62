"""Rate limits in Redis: one sorted set of event times per key, checked and updated by one
Lua script (atomic across every process and host), timed by the Redis server's clock; log-in
back-off as one hash per key (failures, not before) that expires an hour after the last."""

from __future__ import annotations

import logging
import math
import uuid

from redis import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

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


FAIL = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local delay = 0
if failures >= tonumber(ARGV[1]) then
  delay = math.min(tonumber(ARGV[2]), 2 ^ (failures - tonumber(ARGV[1])))
end
redis.call('HSET', KEYS[1], 'not_before', tostring(now + delay))
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3])))
return failures
"""
WAIT = """
local not_before = redis.call('HGET', KEYS[1], 'not_before')
if not not_before then return '0' end
local t = redis.call('TIME')
return tostring(tonumber(not_before) - (tonumber(t[1]) + tonumber(t[2]) / 1e6))
"""
BACKOFF = "tapequiz:backoff:"


class RedisStore:
    name = "redis"

    def __init__(self, url: str) -> None:
        self.redis = Redis.from_url(
            url, decode_responses=True, socket_timeout=2, socket_connect_timeout=1
        )
        self._hit = self.redis.register_script(HIT)
        self._fail = self.redis.register_script(FAIL)
        self._wait = self.redis.register_script(WAIT)

    def hit(self, key: str, *, limit: int, window: float) -> int | None:
        try:
            left = self._hit(keys=[PREFIX + key], args=[window, limit, uuid.uuid4().hex])
        except (RedisError, OSError) as err:  # fail open: a limiter must not take the site down
            log.warning("rate limit not counted, Redis unreachable: %s", err)
            return None
        return None if left is None else max(1, math.ceil(float(left)))

    def failed(self, key: str, *, free: int, max_delay: float, forget: float) -> None:
        try:
            self._fail(keys=[BACKOFF + key], args=[free, max_delay, forget])
        except (RedisError, OSError) as err:
            log.warning("failed log-in not counted, Redis unreachable: %s", err)

    def wait(self, key: str, *, free: int, max_delay: float, forget: float) -> float:
        try:
            return max(0.0, float(self._wait(keys=[BACKOFF + key])))
        except (RedisError, OSError) as err:  # fail open, as for the rate limits
            log.warning("log-in back-off not checked, Redis unreachable: %s", err)
            return 0.0

    def clear(self, key: str) -> None:
        try:
            self.redis.delete(BACKOFF + key)
        except (RedisError, OSError) as err:
            log.warning("log-in back-off not cleared, Redis unreachable: %s", err)
