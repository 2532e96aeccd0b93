// The Lua scripts that make shared limits atomic: Redis runs each one as a single step, so instances (and cluster
// workers) counting against one key can never both take its last request. Each script touches one key only.

/**
 * Two buckets per key in one hash (r = requests, t = tokens, ts = last update, Redis clock), refilling linearly at
 * their capacity per minute, like TokenBucketRateLimiter. Redis's clock, not the instances', so instances with
 * skewed clocks refill alike. ARGV: rpm, tpm, tokens, mode ('admit' takes one request and the tokens if both fit;
 * 'consume' takes tokens used during generation, even past zero).
 * Returns { status (1 ok, 2 requests exceeded, 3 tokens exceeded), ms to wait, requests left (floor),
 * ms until the request bucket is full, token level (floor) }.
 */
export const RATE_SCRIPT = `
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local rpm = tonumber(ARGV[1])
local tpm = tonumber(ARGV[2])
local tokens = tonumber(ARGV[3])
local stored = redis.call('HMGET', KEYS[1], 'r', 't', 'ts')
local r = tonumber(stored[1]) or rpm
local t = tonumber(stored[2]) or tpm
local ts = tonumber(stored[3]) or now
local elapsed = math.max(0, now - ts)
if rpm > 0 then r = math.min(rpm, r + elapsed * rpm / 60000) end
if tpm > 0 then t = math.min(tpm, t + elapsed * tpm / 60000) end
local status = 1
local wait = 0
if ARGV[4] == 'admit' then
  if rpm > 0 and r < 1 then
    status = 2
    wait = math.ceil((1 - r) * 60000 / rpm)
  else
    -- A request larger than the whole budget may run when the budget is full, or it could never run.
    local need = 0
    if tpm > 0 then need = math.min(tokens, tpm) end
    if tpm > 0 and t < need then
      status = 3
      wait = math.ceil((need - t) * 60000 / tpm)
    else
      if rpm > 0 then r = r - 1 end
      if tpm > 0 then t = t - tokens end
    end
  end
elseif tpm > 0 then
  t = t - tokens
  if t < 0 then status = 3 end
end
local full_requests = 0
if rpm > 0 then full_requests = math.ceil((rpm - r) * 60000 / rpm) end
local full_tokens = 0
if tpm > 0 then full_tokens = math.ceil((tpm - t) * 60000 / tpm) end
-- A bucket is stored only while its limit is on: a limit switched on later starts from a full bucket.
redis.call('HSET', KEYS[1], 'ts', tostring(now))
if rpm > 0 then redis.call('HSET', KEYS[1], 'r', tostring(r)) else redis.call('HDEL', KEYS[1], 'r') end
if tpm > 0 then redis.call('HSET', KEYS[1], 't', tostring(t)) else redis.call('HDEL', KEYS[1], 't') end
-- Once both buckets are full again the hash says nothing a missing one would not: let it expire then.
redis.call('PEXPIRE', KEYS[1], math.max(full_requests, full_tokens, 1000) + 1000)
return { status, wait, math.floor(r), full_requests, math.floor(t) }
`;

/**
 * A key's count of requests to free models in one UTC day. ARGV: limit (0 = unlimited), ms to keep the counter,
 * the day's count so far from the generation records ('' when not read yet). Returns { 1 taken | 0 refused |
 * -1 unknown (read the records, call again with the count), count before this request }.
 */
export const FREE_SCRIPT = `
local used = redis.call('GET', KEYS[1])
if not used then
  if ARGV[3] == '' then return { -1, 0 } end
  used = ARGV[3]
  redis.call('SET', KEYS[1], used, 'PX', ARGV[2])
end
used = tonumber(used)
local limit = tonumber(ARGV[1])
if limit > 0 and used >= limit then return { 0, used } end
redis.call('INCR', KEYS[1])
return { 1, used }
`;
