/**
 * The cluster health read from one node's own view (src/store/redis.ts, clusterHealthy): what
 * `openpm_redis_up` and readiness report for a Redis Cluster, from CLUSTER INFO and CLUSTER
 * NODES text as redis-server 7 writes it.
 */
import { describe, expect, it } from 'vitest';
import { clusterHealthy } from '../../src/store/redis.ts';

const info = (fields: Record<string, string | number>) =>
  Object.entries({
    cluster_state: 'ok',
    cluster_slots_assigned: 16384,
    cluster_slots_ok: 16384,
    cluster_slots_pfail: 0,
    cluster_slots_fail: 0,
    ...fields,
  })
    .map(([k, v]) => `${k}:${v}\r\n`)
    .join('');

const master = (port: number, slots: string, flags = 'master', link = 'connected') =>
  `id${port} 127.0.0.1:${port}@${port + 10000} ${flags} - 0 1700000000000 1 ${link} ${slots}`;
const healthyNodes = [
  master(7000, '0-5460', 'myself,master'),
  master(7001, '5461-10922'),
  master(7002, '10923-16383'),
  'id7003 127.0.0.1:7003@17003 slave id7000 0 1700000000000 1 connected',
].join('\n');

describe('clusterHealthy', () => {
  it('is true when every slot is served and every slot-owning master is up and linked', () => {
    expect(clusterHealthy(info({}), healthyNodes)).toBe(true);
    // A replica cut off does not make the cluster unhealthy; a master with no slots neither.
    const extra = `${healthyNodes}\nid7004 127.0.0.1:7004@17004 slave,fail id7001 0 0 1 disconnected\n${master(7005, '', 'master,fail', 'disconnected')}`;
    expect(clusterHealthy(info({}), extra.replace(/ $/m, ''))).toBe(true);
  });

  it.each([
    ['the cluster says fail', info({ cluster_state: 'fail' }), healthyNodes],
    // cluster-require-full-coverage no: the state stays ok with a shard lost.
    ['slots failing while the state stays ok', info({ cluster_slots_ok: 10922, cluster_slots_fail: 5462 }), healthyNodes],
    ['slots possibly failing', info({ cluster_slots_ok: 10922, cluster_slots_pfail: 5462 }), healthyNodes],
    ['slots unassigned', info({ cluster_slots_assigned: 10922, cluster_slots_ok: 10922 }), healthyNodes],
    // Just after a master died: its link drops at once, well before the node timeout.
    [
      'a slot-owning master disconnected',
      info({}),
      healthyNodes.replace(master(7001, '5461-10922'), master(7001, '5461-10922', 'master', 'disconnected')),
    ],
    [
      'a slot-owning master flagged fail?',
      info({}),
      healthyNodes.replace(master(7002, '10923-16383'), master(7002, '10923-16383', 'master,fail?')),
    ],
    [
      'a slot-owning master flagged fail',
      info({}),
      healthyNodes.replace(master(7002, '10923-16383'), master(7002, '10923-16383', 'master,fail', 'disconnected')),
    ],
    ['no answer to read', '', ''],
  ])('is false when %s', (_name, i, n) => {
    expect(clusterHealthy(i, n)).toBe(false);
  });
});
