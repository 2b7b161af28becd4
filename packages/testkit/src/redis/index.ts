export { startRedis, type RedisServerHandle, type StartRedisOptions } from './start-redis.js';
export { ensureRedisServer, findRedisServer, REDIS_SERVER_COMMAND } from './ensure-redis-server.js';
