import { RedisScript } from './redis-script.ts';

/**
 * docs/platform.md F3: 200 requests per rolling 10 s per source IP. An exact sliding log in one
 * sorted set per egress identity: one member per HTTP attempt, scored by Redis's own clock
 * (TIME), so every process behind that IP shares one budget and one clock.
 *
 * Two lanes share that one log. A caller that must wait registers how many callers of its lane
 * its process has waiting (a hash field per process and lane, "expires_at:callers", that lapses
 * when not renewed, so a dead process holds nobody back for long). The lane that goes first is
 * "priority", unless it has already taken its cap of the window while bulk callers wait; then
 * "bulk" goes first until enough priority permits have left the window. A caller of the lane
 * that goes second takes a permit only while the window has more free slots than the first lane
 * has waiting callers (for priority, no more than what is left of its cap), and only after as
 * many extra gaps; so the next freed slots go to the first lane. The first lane takes any free
 * slot. Nobody waiting in the other lane: the whole window, as if there were one lane. Every
 * grant still needs count < max, so lanes never add permits.
 *
 * While the priority lane is in use (a priority permit in the window, or a priority caller
 * waiting), bulk callers leave `reserve` permits of the window to it: a saturating bulk sync
 * would otherwise fill the whole window in its first seconds, and the next press would wait for
 * those permits to leave it. With no priority permit in the window, bulk has the whole window.
 *
 * KEYS[1] the log (sorted set), KEYS[2] "paused until" (ms, set after a 429),
 * KEYS[3] the priority lane's own log (same members), KEYS[4] priority waiters, KEYS[5] bulk waiters,
 * KEYS[6] when the newest permit fell due (ms): the gap is measured from it, not from the log's
 * newest score, which a permit's answer can move (rate-limiter.ts, dateByAnswer)
 * ARGV[1] permits per window (already reduced by the safety margin)
 * ARGV[2] window in ms (already padded for network delay)
 * ARGV[3] a member unique to this attempt
 * ARGV[4] smallest gap between two permits in ms (0 = none)
 * ARGV[5] lane: "priority" or "bulk"
 * ARGV[6] priority permits per window that go ahead of waiting bulk callers (at least 1)
 * ARGV[7] this process's waiter id in its lane
 * ARGV[8] callers of this lane waiting in this process, the asking one included
 * ARGV[9] how long a registration outlives the wait it was made for, in ms
 * ARGV[10] permits of the window bulk callers leave free while the priority lane is in use
 * Returns {1, ms, at} when granted for a request sent ms from now (0: at once; at: that time in
 * Redis's clock, the permit's score), {0, ms} when the caller must wait ms before asking again.
 *
 * When the gap alone holds a caller back and its slot is at most one gap away, the slot is
 * granted ahead, scored at the time it falls due: the caller sends then, and the next caller asks
 * meanwhile. Asking only once the slot has come would add a round trip and a timer's lateness to
 * every gap, and the first window's spacing is repeated by every later window (benchmark
 * scenario 1: 13 ms gaps came out 15-17 ms). A slot granted ahead is the newest in the log, so
 * the window holds at most max at its time as it does now.
 */
/** How long a log outlives its window after its newest entry, so an idle egress leaves nothing behind. */
export const LOG_OUTLIVES_WINDOW_MS = 1000;

export const ACQUIRE_PERMIT = new RedisScript(
  `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local gap = tonumber(ARGV[4])
local priority = ARGV[5] == 'priority'
local priority_cap = tonumber(ARGV[6])
local waiter = ARGV[7]
local callers = tonumber(ARGV[8])
local grace = tonumber(ARGV[9])
local reserve = tonumber(ARGV[10])
local own = KEYS[5]
if priority then own = KEYS[4] end

-- Callers waiting in one lane, and when the first registration lapses; lapsed ones are dropped.
local function waiting(key)
  local fields = redis.call('HGETALL', key)
  local total, lapse = 0, nil
  for i = 1, #fields, 2 do
    local expires, n = string.match(fields[i + 1], '^(%d+):(%d+)$')
    expires = tonumber(expires)
    if expires == nil or expires <= now then
      redis.call('HDEL', key, fields[i])
    else
      total = total + tonumber(n)
      if lapse == nil or expires < lapse then lapse = expires end
    end
  end
  return total, lapse
end

local function register(expires, n)
  redis.call('HSET', own, waiter, string.format('%d:%d', expires, n))
  if redis.call('PTTL', own) < expires - now then
    redis.call('PEXPIRE', own, expires - now)
  end
end

local function refuse(ms)
  ms = math.max(1, math.ceil(ms))
  register(now + ms + grace, callers)
  return {0, ms}
end

local paused_until = tonumber(redis.call('GET', KEYS[2]) or '0')
if paused_until > now then
  return refuse(paused_until - now)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local priority_count = redis.call('ZCARD', KEYS[3])
local priority_waiting, priority_lapse = waiting(KEYS[4])
local bulk_waiting, bulk_lapse = waiting(KEYS[5])
-- A bulk caller asking is bulk demand even before it has registered.
local bulk_demand = bulk_waiting > 0 or not priority
local priority_first = priority_count < priority_cap or not bulk_demand
-- Callers of the first lane this caller must leave room for (none when it is in the first lane);
-- priority goes first for no more permits than are left of its cap.
local held, held_lapse = 0, nil
if priority and not priority_first then
  held, held_lapse = bulk_waiting, bulk_lapse
elseif not priority and priority_first then
  held, held_lapse = math.min(priority_waiting, priority_cap - priority_count), priority_lapse
end
if not priority and reserve > 0 and (priority_count > 0 or priority_waiting > 0)
    and count - priority_count >= max - reserve then
  -- Bulk has its share of the window: ask again when the oldest permit leaves it.
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return refuse(tonumber(oldest[2]) + window - now)
end
local room = max - held
if count >= room then
  local ms
  if room > 0 then
    -- The (count - room + 1)-th oldest entry is the one whose expiry brings the count under room.
    local entry = redis.call('ZRANGE', KEYS[1], count - room, count - room, 'WITHSCORES')
    ms = tonumber(entry[2]) + window - now
  else
    ms = held_lapse - now
  end
  if priority and held > 0 then
    -- Past its cap: priority goes first again once its oldest surplus permit leaves the window.
    local i = priority_count - priority_cap
    local entry = redis.call('ZRANGE', KEYS[3], i, i, 'WITHSCORES')
    ms = math.min(ms, tonumber(entry[2]) + window - now)
  end
  return refuse(ms)
end
local at = now
if gap > 0 and count > 0 then
  local last = tonumber(redis.call('GET', KEYS[6]) or '0')
  local next_at = last + gap * (1 + held)
  if next_at - now > gap then
    -- Ask again when the slot is one gap away.
    return refuse(next_at - now - gap)
  end
  if next_at > now then at = next_at end
end
redis.call('ZADD', KEYS[1], at, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window + ${LOG_OUTLIVES_WINDOW_MS})
redis.call('SET', KEYS[6], at, 'PX', window + ${LOG_OUTLIVES_WINDOW_MS})
if priority then
  redis.call('ZADD', KEYS[3], at, ARGV[3])
  redis.call('PEXPIRE', KEYS[3], window + ${LOG_OUTLIVES_WINDOW_MS})
end
-- Callers queued behind this one keep the registration until they ask.
if callers > 1 then
  register(now + grace, callers - 1)
else
  redis.call('HDEL', own, waiter)
end
return {1, at - now, at}
`,
  6,
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
