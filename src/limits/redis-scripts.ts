// The Lua scripts that make shared limits atomic: Redis runs each one as a single step, so instances (and cluster
// workers) counting against one budget can never both take its last request. The keys one script touches belong
// to one account and carry its id as their hash tag ({...}), so they share a slot on a Redis Cluster too.

/**
 * Two buckets per budget in one hash each (r = requests, t = tokens, ts = last update, Redis clock), refilling
 * linearly at their capacity per minute, like TokenBucketRateLimiter. Redis's clock, not the instances', so instances
 * with skewed clocks refill alike. KEYS: the budgets (an account's, and a key's with limits of its own). ARGV: tokens,
 * mode ('admit' takes one request and the tokens from every budget if all of them can give them, else from none;
 * 'consume' takes tokens used during generation, even past zero), then rpm and tpm of each budget in KEYS' order.
 * Returns { status (1 ok, 2 requests exceeded, 3 tokens exceeded), ms to wait, the refusing budget's index (1-based,
 * 0 when none), then per budget: requests left (floor), ms until its request bucket is full, token level (floor) }.
 */
export const RATE_SCRIPT = `
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local tokens = tonumber(ARGV[1])
local n = #KEYS
local rpm, tpm, r, t = {}, {}, {}, {}
for i = 1, n do
  rpm[i] = tonumber(ARGV[1 + 2 * i])
  tpm[i] = tonumber(ARGV[2 + 2 * i])
  local stored = redis.call('HMGET', KEYS[i], 'r', 't', 'ts')
  r[i] = tonumber(stored[1]) or rpm[i]
  t[i] = tonumber(stored[2]) or tpm[i]
  local elapsed = math.max(0, now - (tonumber(stored[3]) or now))
  if rpm[i] > 0 then r[i] = math.min(rpm[i], r[i] + elapsed * rpm[i] / 60000) end
  if tpm[i] > 0 then t[i] = math.min(tpm[i], t[i] + elapsed * tpm[i] / 60000) end
end
local status = 1
local wait = 0
local refused = 0
if ARGV[2] == 'admit' then
  for i = 1, n do
    -- A request larger than the whole budget may run when the budget is full, or it could never run.
    local need = 0
    if tpm[i] > 0 then need = math.min(tokens, tpm[i]) end
    if rpm[i] > 0 and r[i] < 1 then
      status = 2
      wait = math.ceil((1 - r[i]) * 60000 / rpm[i])
    elseif tpm[i] > 0 and t[i] < need then
      status = 3
      wait = math.ceil((need - t[i]) * 60000 / tpm[i])
    end
    if status ~= 1 then
      refused = i
      break
    end
  end
  if status == 1 then
    for i = 1, n do
      if rpm[i] > 0 then r[i] = r[i] - 1 end
      if tpm[i] > 0 then t[i] = t[i] - tokens end
    end
  end
else
  for i = 1, n do
    if tpm[i] > 0 then
      t[i] = t[i] - tokens
      if t[i] < 0 and status == 1 then
        status = 3
        refused = i
      end
    end
  end
end
local reply = { status, wait, refused }
for i = 1, n do
  local full_requests = 0
  if rpm[i] > 0 then full_requests = math.ceil((rpm[i] - r[i]) * 60000 / rpm[i]) end
  local full_tokens = 0
  if tpm[i] > 0 then full_tokens = math.ceil((tpm[i] - t[i]) * 60000 / tpm[i]) end
  -- A bucket is stored only while its limit is on: a limit switched on later starts from a full bucket.
  redis.call('HSET', KEYS[i], 'ts', tostring(now))
  if rpm[i] > 0 then redis.call('HSET', KEYS[i], 'r', tostring(r[i])) else redis.call('HDEL', KEYS[i], 'r') end
  if tpm[i] > 0 then redis.call('HSET', KEYS[i], 't', tostring(t[i])) else redis.call('HDEL', KEYS[i], 't') end
  -- Once both buckets are full again the hash says nothing a missing one would not: let it expire then.
  redis.call('PEXPIRE', KEYS[i], math.max(full_requests, full_tokens, 1000) + 1000)
  reply[3 * i + 1] = math.floor(r[i])
  reply[3 * i + 2] = full_requests
  reply[3 * i + 3] = math.floor(t[i])
end
return reply
`;

/**
 * An account's count of requests to free models in one UTC day (KEYS[1]) and, when given, its key's (KEYS[2]).
 * ARGV: the account's limit, the key's limit (0 = unlimited for either), ms to keep the counters, the day's counts so
 * far from the generation records, the account's and the key's ('' when not read yet). A request is counted on both
 * or neither. Returns { 1 taken | 0 refused by the account | 2 refused by the key | -1 a count unknown (read the
 * records, call again with them), the account's count before this request, the key's (0 without a key) }.
 */
export const FREE_SCRIPT = `
local function load(key, seed)
  local used = redis.call('GET', key)
  if used then return tonumber(used) end
  if seed == '' then return nil end
  redis.call('SET', key, seed, 'PX', ARGV[3])
  return tonumber(seed)
end
local account = load(KEYS[1], ARGV[4])
local key = 0
if #KEYS > 1 then key = load(KEYS[2], ARGV[5]) end
if account == nil or key == nil then return { -1, 0, 0 } end
local account_limit = tonumber(ARGV[1])
local key_limit = tonumber(ARGV[2])
if #KEYS > 1 and key_limit > 0 and key >= key_limit then return { 2, account, key } end
if account_limit > 0 and account >= account_limit then return { 0, account, key } end
redis.call('INCR', KEYS[1])
if #KEYS > 1 then redis.call('INCR', KEYS[2]) end
return { 1, account, key }
`;
