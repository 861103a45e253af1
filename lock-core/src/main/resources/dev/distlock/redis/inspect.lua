-- What a lock is now, for an operator: who holds it, with which fencing token and lease left, how many waiters are
-- queued with live entries, and the first of them in queue order. Changes nothing.
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- ARGV[1] how many waiters' tokens to list at most
-- Returns {owner token or '', fencing token (0 if unknown), PTTL (-2: free, -1: no expiry), live waiters,
-- the tokens of the first ARGV[1] live waiters, the oldest first, live holds, permits they hold, the name's permits},
-- and Redis's error as a ninth element if it refused LRANGE (an ACL without it): then no token is listed. A
-- semaphore's (or read-write lock's) holds and their permits are counted, and the newest of them (the largest fencing
-- token) is the owner described; a lock has 0 permits.

-- The tokens of the queue's first wanted entries that are in the set live, in queue order: read from the queue's head
-- a hundred at a time, so a long queue is read only as far as needed. Returns them, and Redis's error if refused.
local function live_waiters(queue, live, wanted)
  local tokens = {}
  local from = 0
  while #tokens < wanted do
    local chunk = redis.pcall('LRANGE', queue, from, from + 99)
    if chunk.err then
      return {}, chunk.err
    end
    if #chunk == 0 then
      break
    end
    for i = 1, #chunk do
      if live[chunk[i]] and #tokens < wanted then
        tokens[#tokens + 1] = chunk[i]
        live[chunk[i]] = nil
      end
    end
    from = from + #chunk
  end
  return tokens, nil
end

-- The reply of inspect for a semaphore's hash: its live holds counted, the newest described; changes nothing.
local function newest_permit_holder(lock, now_ms, waiting, tokens, refused)
  local fields = redis.call('HGETALL', lock)
  local holds, used, owner, fence, left = 0, 0, '', 0, -2
  for i = 1, #fields, 2 do
    if string.sub(fields[i], 1, 2) == 'o:' then
      local ends, count, holder_fence = string.match(fields[i + 1], '^(%d+) (%d+) (%d+)$')
      if tonumber(ends) > now_ms then
        holds, used = holds + 1, used + tonumber(count)
        if tonumber(holder_fence) > fence then
          owner, fence, left = string.sub(fields[i], 3), tonumber(holder_fence), tonumber(ends) - now_ms
        end
      end
    end
  end
  local limit = tonumber(redis.call('HGET', lock, 'limit')) or 0
  return { owner, fence, left, waiting, tokens, holds, used, limit, refused }
end

local function inspect(keys, args)
  local lock = keys[1]
  local now_ms = clock()
  local waiting = 0
  local live = {}
  local entries = redis.call('HGETALL', keys[3])
  for i = 2, #entries, 2 do
    local deadline = tonumber(string.match(entries[i], '^(%d+)'))
    if deadline and deadline >= now_ms then
      waiting = waiting + 1
      live[entries[i - 1]] = true
    end
  end
  local tokens, refused = live_waiters(keys[2], live, math.min(tonumber(args[1]) or 0, waiting))
  if is_permits(lock) then
    return newest_permit_holder(lock, now_ms, waiting, tokens, refused)
  end
  local value = read(lock)
  local owner, fence = parse(value)
  if not value or owner == FREE then
    return { '', 0, -2, waiting, tokens, 0, 0, 0, refused }
  end
  -- a value that is no lock's: its first word, with no token
  return { owner or string.match(value, '^(%S*)'), fence or 0, redis.call('PTTL', lock), waiting, tokens, 1, 0, 0,
           refused }
end
