import { ApiClient, expectErrorBody, RunningService, startService } from '@cds/testing';

const G = '/v1/agent/guardrails';
const BASE = { sensitivePathPrefixes: ['/srv/secrets'], networkAllowlist: [], blockShellPatterns: [], requireApprovalScore: 50 };

describe('agent guardrails: system zones', () => {
  let svc: RunningService;
  let api: ApiClient;

  beforeAll(async () => {
    svc = await startService();
    api = new ApiClient(svc.baseUrl, svc.adminKey);
  });
  afterAll(() => svc?.stop());

  const exec = (projectId: string, command: string) => api.post(`${G}/action-authorize`, { projectId, actionType: 'exec', command });

  it('lets system facts be read and stops system changes, each with its reason and category', async () => {
    const read = await exec('zones-default', 'uname -a && cat /proc/cpuinfo && ls /bin');
    expect(read.body).toMatchObject({ action: 'warn', categories: ['sensitive_action'], requiresApproval: false });
    const write = await exec('zones-default', 'cp ./tool ../../../usr/bin/tool');
    expect(write.body).toMatchObject({ action: 'flag', requiresApproval: true });
    expect(write.body.categories).toContain('system_change');
    expect(write.body.reasons).toContain(
      'command "cp ./tool ../../../usr/bin/tool" copies a file to "../../../usr/bin/tool" (resolves to /usr/bin/tool), in system programs and libraries (/usr)',
    );
    const kill = await exec('zones-default', 'pkill -9 sshd');
    expect(kill.body.categories).toContain('process_control');
    expect((await exec('zones-default', 'kill -9 1')).body.action).toBe('block');
  });

  it('stores systemZones with the policy, returns it, keeps it in the history, and applies it', async () => {
    const project = 'zones-policy';
    const policy = { ...BASE, systemZones: { add: ['/srv/app'], exempt: ['/usr/local'] } };
    const saved = await api.request('PUT', `${G}/policy`, { projectId: project, policy });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ projectId: project, policy });
    expect((await api.get(`${G}/policy?projectId=${project}`)).body.policy).toEqual(policy);
    expect((await api.get(`${G}/policy/history?projectId=${project}`)).body.history[0].policy).toEqual(policy);

    expect((await exec(project, 'rm -f /srv/app/config.yml')).body.categories).toContain('system_change');
    expect((await exec(project, 'cp ./tool /usr/local/bin/tool')).body.categories).not.toContain('system_change');
    expect((await exec(project, 'cp ./tool /usr/bin/tool')).body.categories).toContain('system_change');
    // Without systemZones, the stored policy is the spec's four fields, as before.
    const plain = await api.request('PUT', `${G}/policy`, { projectId: project, policy: BASE });
    expect(plain.body.policy).toEqual(BASE);
    expect((await exec(project, 'cp ./tool /usr/local/bin/tool')).body.categories).toContain('system_change');
  });

  it('refuses a bad systemZones with a 422 naming the field', async () => {
    for (const systemZones of [['/srv'], { protect: ['/srv'] }, { add: ['srv/app'] }, { exempt: 'x' }]) {
      const r = await api.request('PUT', `${G}/policy`, { projectId: 'zones-bad', policy: { ...BASE, systemZones } });
      expect({ systemZones, status: r.status }).toEqual({ systemZones, status: 422 });
      expectErrorBody(r.body);
      expect(r.body.code).toBe('INVALID_GUARDRAIL_POLICY');
      expect(r.body.error).toMatch(/systemZones/);
    }
  });
});
