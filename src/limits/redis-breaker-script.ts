// The Lua script that keeps an endpoint's circuit breaker in Redis, shared by every instance: Redis runs it as one
// step, so two instances recording failures at once count both, and only one of them can claim the half-open trial.
// Same rules as routing/circuit-breaker.ts's InMemoryCircuitBreaker. Time is the caller's clock (ARGV[2]), not Redis's:
// cooldowns are seconds, which NTP-synchronised instances agree on, and tests drive the breaker with an injected clock.
//
// KEYS[1]: the endpoint's hash — o = opened at (absent: closed), c = consecutive failures, s<bucket> / f<bucket> =
//          successes / failures per bucket of the failure-rate window (outcome-window.ts's layout).
// KEYS[2]: the half-open trial's owner (SET NX PX: one instance at a time; expires after a cooldown if never settled).
// ARGV: mode (read | allow | success | failure), now ms, failure threshold, rate percent (0 = off), window buckets,
//       min requests, cooldown ms, bucket ms, trial owner id.
// Returns { opened at (-1: closed), 1 if 'allow' granted the request else 0 }.

export const BREAKER_SCRIPT = `
local mode = ARGV[1]
local now = tonumber(ARGV[2])
local cooldown = tonumber(ARGV[7])
local opened = tonumber(redis.call('HGET', KEYS[1], 'o'))
if mode == 'read' then return { opened or -1, 0 } end
if mode == 'allow' then
  if not opened then return { -1, 1 } end
  if now - opened < cooldown then return { opened, 0 } end
  if redis.call('SET', KEYS[2], ARGV[9], 'NX', 'PX', cooldown) then return { opened, 1 } end
  return { opened, 0 }
end
local percent = tonumber(ARGV[4])
local buckets = tonumber(ARGV[5])
local bucket_ms = tonumber(ARGV[8])
local bucket = math.floor(now / bucket_ms)
-- Kept while it can matter: a window, or an open breaker's cooldown; a forgotten endpoint is a closed one.
local keep = math.max(buckets * bucket_ms, cooldown) * 2
if mode == 'success' then
  if opened then
    -- While the cooldown runs a success comes from a request sent before the breaker opened: no verdict.
    if now - opened < cooldown then return { opened, 0 } end
    redis.call('DEL', KEYS[1], KEYS[2])
    return { -1, 0 }
  end
  if percent == 0 then
    redis.call('DEL', KEYS[1])
    return { -1, 0 }
  end
  redis.call('HSET', KEYS[1], 'c', 0)
  redis.call('HINCRBY', KEYS[1], 's' .. bucket, 1)
  redis.call('PEXPIRE', KEYS[1], keep)
  return { -1, 0 }
end
local consecutive = redis.call('HINCRBY', KEYS[1], 'c', 1)
local total = 0
local failed = 0
if percent > 0 then
  redis.call('HINCRBY', KEYS[1], 'f' .. bucket, 1)
  local oldest = bucket - buckets + 1
  local fields = redis.call('HGETALL', KEYS[1])
  for i = 1, #fields, 2 do
    local kind = string.sub(fields[i], 1, 1)
    if kind == 's' or kind == 'f' then
      if tonumber(string.sub(fields[i], 2)) < oldest then
        redis.call('HDEL', KEYS[1], fields[i])
      else
        local n = tonumber(fields[i + 1])
        total = total + n
        if kind == 'f' then failed = failed + n end
      end
    end
  end
end
local min_requests = tonumber(ARGV[6])
if opened or consecutive >= tonumber(ARGV[3]) or (percent > 0 and total >= min_requests and failed * 100 >= percent * total) then
  opened = now
  redis.call('HSET', KEYS[1], 'o', now)
  redis.call('DEL', KEYS[2])
end
redis.call('PEXPIRE', KEYS[1], keep)
return { opened or -1, 0 }
`;
