import { RedisScript } from './redis-script.ts';

/**
 * docs/platform.md F3: 200 requests per rolling 10 s per source IP. An exact sliding log in one
 * sorted set per egress identity: one member per HTTP attempt, scored by Redis's own clock
 * (TIME), so every process behind that IP shares one budget and one clock.
 *
 * KEYS[1] the log (sorted set), KEYS[2] "paused until" (ms, set after a 429)
 * ARGV[1] permits per window (already reduced by the safety margin)
 * ARGV[2] window in ms (already padded for network delay)
 * ARGV[3] a member unique to this attempt
 * ARGV[4] smallest gap between two permits in ms (0 = none)
 * Returns {1, 0} when granted, {0, ms} when the caller must wait ms before asking again.
 */
export const ACQUIRE_PERMIT = new RedisScript(
  `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local paused_until = tonumber(redis.call('GET', KEYS[2]) or '0')
if paused_until > now then
  return {0, paused_until - now}
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= max then
  -- The (count - max + 1)-th oldest entry is the one whose expiry brings the count under max.
  local entry = redis.call('ZRANGE', KEYS[1], count - max, count - max, 'WITHSCORES')
  return {0, math.max(1, tonumber(entry[2]) + window - now)}
end
local gap = tonumber(ARGV[4])
if gap > 0 and count > 0 then
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  local next_at = tonumber(last[2]) + gap
  if next_at > now then
    return {0, next_at - now}
  end
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window + 1000)
return {1, 0}
`,
  2,
);

/**
 * After a 429 (F3: Retry-After in whole seconds): every process stops taking permits until
 * Redis's clock passes now + ARGV[1] ms. A later, shorter pause never shortens a longer one.
 * KEYS[1] "paused until"; returns the pause end in Redis ms.
 */
export const PAUSE_PERMITS = new RedisScript(
  `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ms = tonumber(ARGV[1])
local until_ms = now + ms
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if until_ms > current then
  redis.call('SET', KEYS[1], until_ms, 'PX', ms)
  return until_ms
end
return current
`,
  1,
);
