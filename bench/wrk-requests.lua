-- wrk script for bench/run.ts: requests picked at random from a file of "path<TAB>authorization<TAB>token"
-- lines, a share of them from a hot subset, without sending more than `budget` requests per second on
-- any one token (token -1: no limit). Prints the figures as one JSON line when done.
-- Arguments: FILE HOT_SHARE HOT_FRACTION BUDGET HOT_SEED [RATE]
-- RATE, when above 0, is the rate offered, in requests a second over all connections: each request is sent
-- at its turn on a fixed schedule (or at once, if late), so that latency is measured below saturation.
-- The hot subset is drawn from HOT_SEED, so that a scenario's warm-up and its measured run (two wrk
-- processes) ask for the same hot entries: a warm-up that drew its own would leave the measured run to
-- fill the cache with the hot set it asks for.
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } compras_timespec;
int clock_gettime(int clock, compras_timespec *now);
]]
local clock = ffi.new("compras_timespec")
-- Milliseconds on the monotonic clock (wrk's Lua has no finer clock than os.time's seconds).
local function nowMs()
  ffi.C.clock_gettime(1, clock)
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end

local requests, tokens, hot, free = {}, {}, {}, {}
local used, second = {}, {}
local hotShare, budget = 0, 0
local intervalMs, nextMs = 0, 0

function init(args)
  hotShare = tonumber(args[2])
  local hotFraction = tonumber(args[3])
  budget = tonumber(args[4])
  local rate = tonumber(args[6] or "0")
  if rate > 0 then intervalMs = 1000 / rate end
  for line in io.lines(args[1]) do
    local path, auth, token = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)$")
    local headers = {}
    if auth ~= "" then headers["Authorization"] = auth end
    requests[#requests + 1] = wrk.format("GET", path, headers)
    tokens[#tokens + 1] = tonumber(token)
    if tonumber(token) < 0 then free[#free + 1] = #requests end
  end
  local hotCount = math.max(1, math.floor(#requests * hotFraction + 0.5))
  math.randomseed(tonumber(args[5]))
  for i = 1, hotCount do hot[i] = math.random(#requests) end
  -- Each request's pick, unlike the hot subset, differs from run to run.
  math.randomseed(os.time() + math.floor(os.clock() * 1e6))
end

-- Waits for the request's turn on the schedule, when a rate is set.
function delay()
  if intervalMs == 0 then return 0 end
  local now = nowMs()
  if nextMs < now then nextMs = now end
  local wait = nextMs - now
  nextMs = nextMs + intervalMs
  return math.floor(wait)
end

function request()
  local i = 1
  for _ = 1, 50 do
    if hotShare > 0 and math.random() < hotShare then i = hot[math.random(#hot)] else i = math.random(#requests) end
    local t = tokens[i]
    if t < 0 then return requests[i] end
    local now = os.time()
    if second[t] ~= now then second[t] = now; used[t] = 0 end
    if used[t] < budget then used[t] = used[t] + 1; return requests[i] end
  end
  -- Every pick was over its token's budget: a request that needs no token, if the mix has one, rather than a
  -- sure 429 (the soak's mix ran into this on a fast host).
  if #free > 0 then return requests[free[math.random(#free)]] end
  return requests[i]
end

function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"errors":%d,"non2xx":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
