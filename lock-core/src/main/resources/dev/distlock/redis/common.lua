-- Functions shared by the lock's operations. LockScripts puts this text in front of each script (EVALSHA), and
-- in front of the operations of the function library (FCALL, Redis 7 and Valkey).
--
-- A lock is one string key, KEYS[1], whose value is '<owner> <fencing token> <mark> <origin> -':
--   owner     the holder's token, or '~' while the lock is free: a release leaves the value in place with '~'
--             for fence retention, so the next token is larger than the last one, whatever the clock says
--   mark      'q' once a waiter queued behind the holder (its release looks in the queue), else '-'
--   origin    the fencing token of the first hold of the key's current life (since the key was last created)
-- Within one life of the key every hold ends by its owner's release (released, passed on or abandoned: the value
-- goes on with the next owner or '~'); a hold that is not released ends the life (its key expires or is deleted),
-- and the next acquisition starts a new one with a token from the clock. So a release that a client sends again
-- after a reconnect, with its hold's fencing token, knows that its first run released the hold whoever holds the
-- lock since: the token lies in [origin, the value's token]. Values written by the previous version of these
-- scripts ('<owner> <token> <mark> <released> <released before>') are read as if their life began with their own
-- fencing token, or with the number in their fifth word (an origin such a script moved along), and are written in
-- this form again by the next script that writes them. Old scripts read this form as theirs: the origin and '-' are
-- two releases they never find, and the origin is what they move along.
-- While the lock is held the key lives for the lease; while free for the fence retention. Waiters, only while
-- some process waits, have two more keys in the same hash slot (same hash tag), which the scripts that queue or
-- hand over take as KEYS[2] and KEYS[3] (declared, so that a cluster slot in migration is refused before a script
-- runs, never half-way through it):
--   <lock>:queue    waiter tokens in arrival order
--   <lock>:waiters  token -> '<deadline ms> <lease ms> <timeout ms> <channel>'; an entry is live until its
--                   deadline (server clock), which each try of its waiter moves to now + timeout
-- Redis 6.x lacks SET ... NX ... GET (7.0) and PEXPIRE ... GT (7.0): the scripts fall back to separate commands.

-- The hot path reads and writes the lock's value with prefix compares and concatenations rather than a full parse
-- and string.format: every call runs these lines, and each string function costs a fraction of a microsecond.
local MODERN = (redis.REDIS_VERSION_NUM or 0) >= 0x070000
-- The largest fencing token: Lua counts in doubles, exact up to 2^53 - 1. No larger token can be issued.
local MAX_FENCE = 2 ^ 53 - 1
local FREE = '~'

local function fmt(number)
  return string.format('%d', number)
end

-- The server clock: in milliseconds, in microseconds, and in microseconds as text.
local function clock()
  local t = redis.call('TIME')
  local now_us = t[1] * 1000000 + t[2]
  return math.floor(now_us / 1000), now_us, t[1] .. string.sub('00000' .. t[2], -6)
end

-- Whether the lock's value is the token's hold.
local function owns(value, token)
  return value and string.sub(value, 1, #token + 1) == token .. ' '
end

-- The first fencing token of a value's life: its fourth word, or, for a value an older script wrote, the number in its
-- fifth (an origin it moved along) or else its own fencing token (its life is not known to have begun earlier).
local function origin_of(fence, fourth, fifth)
  local origin = tonumber(string.match(fourth, '^%d+$') or string.match(fifth, '^%d+$'))
  if origin and origin <= fence then
    return origin
  end
  return fence
end

-- The lock's value as its parts: owner, fencing token, mark, origin (numbers); nil for a value that is no lock's
-- (written by something else: nobody's to take or to release).
local function parse(value)
  if not value then
    return nil
  end
  local owner, fence, mark, fourth, fifth = string.match(value, '^(%S+) (%d+) ([%-q]) (%S+) (%S+)$')
  fence = tonumber(fence)
  if not fence or fence > MAX_FENCE then
    return nil
  end
  return owner, fence, mark, origin_of(fence, fourth, fifth)
end

-- The value of a hold (fence and origin as numbers).
local function compose(owner, fence, mark, origin)
  return owner .. ' ' .. fmt(fence) .. ' ' .. mark .. ' ' .. fmt(origin) .. ' -'
end

-- The fencing token, mark and origin (as text) of a hold's value, read in full only if an older script wrote it.
local function hold_parts(value)
  local fence, mark, origin = string.match(value, '^%S+ (%d+) ([%-q]) (%d+) %-$')
  if fence then
    return fence, mark, origin
  end
  local owner, last, marked, first = parse(value)
  if owner then
    return fmt(last), marked, fmt(first)
  end
  return nil
end

-- The lock's value; false if there is none, or the key holds another type (then it is nobody's hold).
local function read(lock)
  local value = redis.pcall('GET', lock)
  if type(value) == 'table' and value.err then
    return false
  end
  return value
end

-- The error of a lock whose fencing tokens are exhausted (see MAX_FENCE): tokens must grow, so none is issued.
local function fence_exhausted(lock)
  return redis.error_reply('ERR distlock: the fencing tokens of ' .. lock .. ' are exhausted: they reached '
      .. fmt(MAX_FENCE) .. ' (2^53 - 1), the largest a script counts to exactly, and every new one must be larger')
end

-- The next fencing token after last: larger than it, and at least the server clock in microseconds, so tokens
-- also grow after the last one was lost (lease run out, evicted, not yet replicated to a promoted replica) as
-- long as the clock is ahead of the tokens issued before. nil if the tokens are exhausted.
local function next_fence(last, now_us)
  local fence = math.max((last or 0) + 1, now_us)
  if fence > MAX_FENCE then
    return nil
  end
  return fence
end

-- Takes the first waiter whose entry is live out of the queue, dropping dead entries before it; nil if none.
-- first: a token already taken off the queue's head, or nil.
local function pop_live_waiter(keys, now_ms, first)
  local queue, waiters = keys[2], keys[3]
  local token = first or redis.call('LPOP', queue)
  while token do
    local entry = redis.call('HGET', waiters, token)
    if entry then
      redis.call('HDEL', waiters, token)
      local deadline, lease, timeout, channel = string.match(entry, '^(%d+) (%d+) (%d+) (.*)$')
      if deadline and tonumber(deadline) >= now_ms then
        return { token = token, lease = tonumber(lease), timeout = tonumber(timeout), channel = channel }
      end
    end
    token = redis.call('LPOP', queue)
  end
  return nil
end

-- Takes the token out of the queue.
local function leave_queue(keys, token)
  if redis.call('HDEL', keys[3], token) == 1 then
    redis.call('LREM', keys[2], 0, token)
  end
end

-- Lengthens the key's expiry to ms, never shortens it; the key has an expiry unless it is new.
local function lengthen(key, ms, new)
  if new then
    redis.call('PEXPIRE', key, ms)
  elseif MODERN then
    redis.call('PEXPIRE', key, ms, 'GT')
  else
    local ttl = redis.call('PTTL', key)
    if ttl >= 0 and ttl < tonumber(ms) then
      redis.call('PEXPIRE', key, ms)
    end
  end
end

-- Queues the token, or moves its entry's deadline; keeps the queue alive as long as its longest-lived entry,
-- so waiters with different timeouts never cut each other's entries short. Returns whether it was new.
local function enqueue(keys, token, lease, timeout, channel, now_ms)
  local queue, waiters = keys[2], keys[3]
  local entry = fmt(now_ms + timeout) .. ' ' .. lease .. ' ' .. timeout .. ' ' .. channel
  local new = redis.call('HSET', waiters, token, entry) == 1
  local fresh = new and redis.call('RPUSH', queue, token) == 1
  lengthen(queue, timeout, fresh)
  lengthen(waiters, timeout, fresh)
  return new
end

-- Tells a waiter on its channel that a hold was handed to it: '<token> <fencing token> <server time ms> <claim ms>'.
-- A refused PUBLISH (e.g. an ACL without the channel) does not undo the hand-off: the waiter finds it at its next
-- poll. Returns Redis's error, or nil.
local function tell_waiter(waiter, fence, now_ms, claim)
  local notice = waiter.token .. ' ' .. fmt(fence) .. ' ' .. fmt(now_ms) .. ' ' .. fmt(claim)
  local published = redis.pcall('PUBLISH', waiter.channel, notice)
  if type(published) == 'table' and published.err then
    return published.err
  end
  return nil
end

-- Hands the lock to a waiter: its token, fencing token and the life's origin (text) in the lock value, with the
-- waiter's claim lease (the waiter extends it to its full lease at once), and tells it. Returns Redis's error of a
-- refused notice, or nil.
local function hand_over(lock, waiter, fence, origin, now_ms)
  local claim = math.min(waiter.lease, waiter.timeout)
  redis.call('SET', lock, waiter.token .. ' ' .. fmt(fence) .. ' q ' .. origin .. ' -', 'PX', claim)
  return tell_waiter(waiter, fence, now_ms, claim)
end

-- Frees the lock (fence: its last fencing token, origin: its life's first, as text): its value stays, with owner
-- '~', for the fence retention. A Redis out of memory that refuses the write still frees it (the key's life then ends:
-- the clock alone makes the next token larger, and a release run again finds nothing).
local function free(lock, fence, origin, retention)
  local written = redis.pcall('SET', lock, '~ ' .. fence .. ' - ' .. origin .. ' -', 'PX', retention)
  if type(written) == 'table' and written.err then
    redis.call('DEL', lock)
  end
end

-- Whether the hold with fencing token fence (a number, or nil if not known) was released in the life of the lock's
-- value: a token issued in this life, which is not the holder's, was issued for a hold that its owner released.
local function released_in_life(value, fence)
  local owner, last, _, origin = parse(value)
  return owner ~= nil and fence ~= nil and fence >= origin and fence <= last
end

-- A semaphore with leased permits is one hash key, KEYS[1] (the name's key, where a lock is a string), with
--   limit      how many permits the processes using it declared
--   fence      the last fencing token issued for one of its holds (the key outlives its holds by the fence retention)
--   origin     the first fencing token of its current life (since the key was created): a release run again finds
--              its first run took effect by its token lying in [origin, fence], held by nobody, and not lost
--   lost       the fencing tokens of the holds of this life that ended without their release (their lease ran out),
--              space-separated, at most MAX_LOST: past that the smallest is dropped and the origin moves above it
--   o:<token>  a holder: '<lease end ms> <permits> <fencing token>' on the server clock; a holder whose lease end
--              passed is gone, dropped by the next script that looks (its token noted lost)
-- Its waiters queue in the same two keys as a lock's, a waiters entry being '<deadline ms> <lease ms> <timeout ms>
-- <permits> <channel>'. These functions run only where a script finds a hash, off the lock's hot path.

-- Whether the key is a semaphore's: a hash with both its count and its fencing token (a hash something else wrote
-- is nobody's semaphore, and nobody's to take or to release).
local function permit_marks(lock)
  return redis.call('HEXISTS', lock, 'limit') == 1 and redis.call('HEXISTS', lock, 'fence') == 1
end

local function is_permits(lock)
  return redis.call('TYPE', lock).ok == 'hash' and permit_marks(lock)
end

-- Makes the key live at least ms from now (a new key has no expiry yet).
local function keep(key, ms)
  if redis.call('PTTL', key) < tonumber(ms) then
    redis.call('PEXPIRE', key, ms)
  end
end

-- How many lost tokens a semaphore remembers (see above): enough for the holds that end unreleased between a release
-- and its replay after a reconnect.
local MAX_LOST = 32

-- Notes the fencing token (text) of a holder dropped without its release.
local function note_lost(lock, fence)
  local lost = redis.call('HGET', lock, 'lost')
  local tokens = {}
  for token in string.gmatch(lost or '', '%d+') do
    tokens[#tokens + 1] = tonumber(token)
  end
  tokens[#tokens + 1] = tonumber(fence)
  if #tokens > MAX_LOST then
    table.sort(tokens)
    redis.call('HSET', lock, 'origin', fmt(table.remove(tokens, 1) + 1))
  end
  local text = {}
  for i = 1, #tokens do
    text[i] = fmt(tokens[i])
  end
  redis.call('HSET', lock, 'lost', table.concat(text, ' '))
end

-- Whether the fencing token (a number) is of a hold of this life that ended without its release.
local function was_lost(lock, fence)
  for token in string.gmatch(redis.call('HGET', lock, 'lost') or '', '%d+') do
    if tonumber(token) == fence then
      return true
    end
  end
  return false
end

-- Drops the holders whose lease ran out (noting their tokens lost); returns the permits the live holders have and the
-- soonest of their lease ends from now (-1 if none).
local function live_permits(lock, now_ms)
  local fields = redis.call('HGETALL', lock)
  local used, soonest = 0, -1
  for i = 1, #fields, 2 do
    if string.sub(fields[i], 1, 2) == 'o:' then
      local ends, count = string.match(fields[i + 1], '^(%d+) (%d+)')
      local left = tonumber(ends) - now_ms
      if left <= 0 then
        redis.call('HDEL', lock, fields[i])
        note_lost(lock, string.match(fields[i + 1], '(%d+)$'))
      else
        used = used + tonumber(count)
        if soonest < 0 or left < soonest then
          soonest = left
        end
      end
    end
  end
  return used, soonest
end

-- The holder entry of the token, if it is live: its lease end, the rest of the entry ('<permits> <fence>') and
-- its fencing token; a holder whose lease ran out is dropped (its token noted lost).
local function permit_holder(lock, token, now_ms)
  local field = 'o:' .. token
  local entry = redis.call('HGET', lock, field)
  if not entry then
    return nil
  end
  local ends, rest, fence = string.match(entry, '^(%d+) (%d+ (%d+))$')
  if tonumber(ends) <= now_ms then
    redis.call('HDEL', lock, field)
    note_lost(lock, fence)
    return nil
  end
  return tonumber(ends), rest, tonumber(fence)
end

-- Sets the token's lease to ms from now (only longer if only_longer); 1 if the token holds permits, else 0.
local function set_permits_lease(lock, token, ms, only_longer, now_ms)
  local ends, rest = permit_holder(lock, token, now_ms)
  if not ends then
    return 0
  end
  if not only_longer or now_ms + ms > ends then
    redis.call('HSET', lock, 'o:' .. token, fmt(now_ms + ms) .. ' ' .. rest)
  end
  keep(lock, ms)
  return 1
end

-- Grants count permits to the token with a lease of ms: returns the fencing token, or nil if they are exhausted.
local function grant_permits(lock, token, count, lease, now_ms, now_us)
  local next = next_fence(tonumber(redis.call('HGET', lock, 'fence')), now_us)
  if not next then
    return nil
  end
  local text = fmt(next)
  local origin = redis.call('HGET', lock, 'origin')
  if not origin or origin == '' then
    redis.call('HSET', lock, 'origin', text)
    redis.call('HDEL', lock, 'lost')
  end
  redis.call('HSET', lock, 'fence', text, 'o:' .. token, fmt(now_ms + lease) .. ' ' .. count .. ' ' .. text)
  keep(lock, lease)
  return next
end

-- The first waiter of a semaphore's queue whose entry is live, left in the queue; dead entries before it dropped.
local function first_permit_waiter(keys, now_ms)
  local queue, waiters = keys[2], keys[3]
  local token = redis.call('LINDEX', queue, 0)
  while token do
    local entry = redis.call('HGET', waiters, token)
    if entry then
      local deadline, lease, timeout, count, channel = string.match(entry, '^(%d+) (%d+) (%d+) (%d+) (.*)$')
      if deadline and tonumber(deadline) >= now_ms then
        return { token = token, lease = tonumber(lease), timeout = tonumber(timeout), count = tonumber(count),
                 channel = channel }
      end
      redis.call('HDEL', waiters, token)
    end
    redis.call('LPOP', queue)
    token = redis.call('LINDEX', queue, 0)
  end
  return nil
end

-- Hands free permits to the waiters at the head of the queue, in order, as long as each one's fit, each with its
-- claim lease and a notice as a lock's hand-off; used: the permits held now. Returns Redis's error of a refused
-- PUBLISH, or nil.
local function hand_on_permits(keys, used, now_ms, now_us)
  local lock = keys[1]
  local limit = tonumber(redis.call('HGET', lock, 'limit'))
  local refused
  local waiter = first_permit_waiter(keys, now_ms)
  while waiter and used + waiter.count <= limit do
    redis.call('LPOP', keys[2])
    redis.call('HDEL', keys[3], waiter.token)
    local claim = math.min(waiter.lease, waiter.timeout)
    local fence = grant_permits(lock, waiter.token, waiter.count, claim, now_ms, now_us)
    if not fence then
      break
    end
    used = used + waiter.count
    refused = tell_waiter(waiter, fence, now_ms, claim) or refused
    waiter = first_permit_waiter(keys, now_ms)
  end
  return refused
end

-- Gives back the token's permits and hands them on (see release). A release run again finds by its fence that its
-- first run took effect: a token of this life, held by nobody now.
local function release_permits(keys, token, retention, fence)
  local lock = keys[1]
  local now_ms, now_us = clock()
  local used = live_permits(lock, now_ms)
  local field = 'o:' .. token
  local entry = redis.call('HGET', lock, field)
  if not entry then
    local first, last, run = tonumber(redis.call('HGET', lock, 'origin')), tonumber(redis.call('HGET', lock, 'fence')),
        fence and tonumber(fence)
    return { (first and run and run >= first and run <= last and not was_lost(lock, run)) and 1 or 0 }
  end
  redis.call('HDEL', lock, field)
  keep(lock, retention)
  local refused = hand_on_permits(keys, used - tonumber(string.match(entry, '^%d+ (%d+)')), now_ms, now_us)
  return refused and { 1, refused } or { 1 }
end

-- Releases the lock if the token holds it: hands it to the first live waiter, or frees it. fence: the hold's fencing
-- token (text), by which a release run again finds that its first run released the hold; nil if not known.
-- Returns {1} or {1, PUBLISH error} if released (also when a release run again finds that its first run took
-- effect), {0} if the lock is not the token's.
local function release(keys, token, retention, fence)
  local lock = keys[1]
  local value = read(lock)
  if value == false and is_permits(lock) then
    return release_permits(keys, token, retention, fence)
  end
  local last, mark, origin
  if owns(value, token) then
    last, mark, origin = hold_parts(value)
  end
  if not last then
    -- run again? its hold's token is of this life, whoever holds the lock since
    return { released_in_life(value, fence and tonumber(fence)) and 1 or 0 }
  end
  -- the clock only once a waiter was queued: a holder whose queue emptied (the last waiter's) frees without it
  local first = mark == 'q' and redis.call('LPOP', keys[2])
  if first then
    local now_ms, now_us = clock()
    local waiter = pop_live_waiter(keys, now_ms, first)
    local next = waiter and next_fence(tonumber(last), now_us)
    if next then
      local refused = hand_over(lock, waiter, next, origin, now_ms)
      return refused and { 1, refused } or { 1 }
    end
    -- none live, or no token left to hand over with: freed; a waiter finds out at its next try
  end
  free(lock, last, origin, retention)
  return { 1 }
end
