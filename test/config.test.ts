import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../src/config.js'

describe('loadConfig', () => {
  it('has defaults for a fresh machine', () => {
    const config = loadConfig({})
    assert.equal(config.port, 3000)
    assert.equal(config.host, '0.0.0.0')
    assert.equal(config.dataDir, path.resolve('data'))
    assert.equal(config.databaseUrl, undefined)
    assert.equal(config.redisUrl, undefined)
    assert.equal(config.logLevel, 'info')
    assert.equal(config.tls, undefined)
    assert.equal(config.demoOnEmpty, true)
    assert.equal(config.cacheMb, 64)
    assert.equal(config.databasePoolSize, 10)
    assert.equal(config.logRequests, false)
    assert.deepEqual(config.databaseReplicaUrls, [])
    assert.equal(config.replicaMaxLagSeconds, 5)
    assert.ok(Object.isFrozen(config))
  })

  it('takes proxies as a hop count, or as addresses and ranges of either family', () => {
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, 1)
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2)
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1/128,loopback' }).trustProxy, [
      '10.0.0.0/8',
      '::1/128',
      'loopback',
    ])
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false)
  })

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/compras',
      DATABASE_URL: 'postgres://u@db:5432/compras',
      REDIS_URL: 'redis://cache:6379',
      LOG_LEVEL: 'WARN',
      DEMO_ON_EMPTY: 'false',
      CACHE_MB: '0',
      DATABASE_POOL_SIZE: '4',
      LOG_REQUESTS: 'true',
      DATABASE_REPLICA_URLS: ' postgres://r@replica-1/compras, postgresql://r@replica-2:5433/compras,',
      REPLICA_MAX_LAG: '30',
      WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8, ::1',
      WEBHOOK_CONCURRENCY: '3',
    })
    assert.equal(config.port, 8080)
    assert.equal(config.host, '127.0.0.1')
    assert.equal(config.dataDir, '/var/lib/compras')
    assert.equal(config.databaseUrl, 'postgres://u@db:5432/compras')
    assert.equal(config.redisUrl, 'redis://cache:6379')
    assert.equal(config.logLevel, 'warn')
    assert.equal(config.demoOnEmpty, false)
    assert.equal(config.cacheMb, 0)
    assert.equal(config.databasePoolSize, 4)
    assert.equal(config.logRequests, true)
    assert.deepEqual(config.databaseReplicaUrls, [
      'postgres://r@replica-1/compras',
      'postgresql://r@replica-2:5433/compras',
    ])
    assert.equal(config.replicaMaxLagSeconds, 30)
    assert.deepEqual(config.webhookAllowPrivate, ['127.0.0.0/8', '::1'])
    assert.equal(config.webhookConcurrency, 3)
  })

  const bad: [Record<string, string>, RegExp][] = [
    [{ PORT: 'abc' }, /^PORT must be an integer/],
    [{ PORT: '70000' }, /^PORT must be an integer/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL is not a valid URL/],
    [{ REDIS_URL: 'http://x' }, /^REDIS_URL must start with redis:\/\//],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ TLS_CERT_FILE: '/etc/hosts' }, /^TLS_CERT_FILE and TLS_KEY_FILE must be set together/],
    [{ TLS_CERT_FILE: '/nope/cert.pem', TLS_KEY_FILE: '/nope/key.pem' }, /^TLS_CERT_FILE: file not found/],
    [{ DEMO_ON_EMPTY: 'maybe' }, /^DEMO_ON_EMPTY must be true or false/],
    [{ CACHE_MB: '-5' }, /^CACHE_MB must be a whole number of megabytes/],
    [{ LOG_REQUESTS: 'often' }, /^LOG_REQUESTS must be true or false/],
    // One connection listens for imports: with one alone, no request would ever get one.
    [{ DATABASE_POOL_SIZE: '1' }, /^DATABASE_POOL_SIZE must be a whole number from 2 to 1000, got "1"/],
    [{ DATABASE_POOL_SIZE: 'many' }, /^DATABASE_POOL_SIZE must be a whole number from 2 to 1000/],
    // A proxy range that names no range: trusting it could trust any address.
    [
      { TRUST_PROXY: '10.0.0.0/33' },
      /^TRUST_PROXY must be false, a number of proxies, .*got "10\.0\.0\.0\/33"/,
    ],
    [{ TRUST_PROXY: '10.0.0.0/8/1' }, /^TRUST_PROXY must be false, a number of proxies/],
    [{ TRUST_PROXY: '::1/129' }, /^TRUST_PROXY must be false, a number of proxies/],
    [{ TRUST_PROXY: '10.0.0.0/x' }, /^TRUST_PROXY must be false, a number of proxies/],
    [{ TRUST_PROXY: 'proxy.local' }, /^TRUST_PROXY must be false, a number of proxies/],
    [{ TRUST_PROXY: '11' }, /^TRUST_PROXY must count at most 10 proxies/],
    [{ IPV6_PREFIX: '8' }, /^IPV6_PREFIX must be a whole number from 16 to 128/],
    [{ DOWNLOAD_MIN_RATE: 'fast' }, /^DOWNLOAD_MIN_RATE must be a whole number/],
    // Replicas of the embedded server are not a thing: they are of a server the operator runs.
    [{ DATABASE_REPLICA_URLS: 'postgres://r@replica/compras' }, /^DATABASE_REPLICA_URLS needs DATABASE_URL/],
    [
      {
        DATABASE_URL: 'postgres://u@db/compras',
        DATABASE_REPLICA_URLS: 'postgres://r:secret@replica/compras,redis://x',
      },
      /^DATABASE_REPLICA_URLS must start with postgres:\/\/ or postgresql:\/\/$/,
    ],
    [
      { DATABASE_URL: 'postgres://u@db/compras', REPLICA_MAX_LAG: '0' },
      /^REPLICA_MAX_LAG must be a whole number from 1 to 3600/,
    ],
    [
      { WEBHOOK_ALLOW_PRIVATE: '10.0.0.0/33' },
      /^WEBHOOK_ALLOW_PRIVATE must be comma-separated address ranges/,
    ],
    [{ WEBHOOK_ALLOW_PRIVATE: 'intranet' }, /^WEBHOOK_ALLOW_PRIVATE must be comma-separated address ranges/],
    [{ WEBHOOK_CONCURRENCY: '0' }, /^WEBHOOK_CONCURRENCY must be a whole number from 1 to 256/],
  ]
  for (const [env, message] of bad) {
    it(`refuses ${JSON.stringify(env)} with a message naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      )
    })
  }
})
