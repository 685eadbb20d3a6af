import { DomainError } from '@cds/errors';
import { Resolver } from '@cds/egress';
import { assertDeliverableUrl, URL_RESOLVE_TIMEOUT_MS } from './webhook-url';

const failure = (p: Promise<void>) =>
  p.then(
    () => null,
    (err: unknown) => err as DomainError,
  );

describe('assertDeliverableUrl', () => {
  it('answers 422 WEBHOOK_URL_DNS_TIMEOUT when the host gives no answer in time, without waiting for it', async () => {
    expect(URL_RESOLVE_TIMEOUT_MS).toBe(3_000);
    const hanging: Resolver = () => new Promise<string[]>(() => undefined);
    const err = await failure(assertDeliverableUrl('https://hangs.example.com/hook', {}, 'webhookUrl', { resolve: hanging, timeoutMs: 30 }));
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: 'invalid', code: 'WEBHOOK_URL_DNS_TIMEOUT' });
    expect(err!.details).toMatch(/^webhookUrl: DNS lookup of hangs\.example\.com did not answer within 30 ms/);
  });

  it('keeps the other refusals: malformed URLs, forbidden addresses, hosts that do not resolve', async () => {
    const resolvesTo =
      (...a: string[]): Resolver =>
      async () =>
        a;
    const nowhere: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await failure(assertDeliverableUrl('ftp://x.example.com/', {}))).toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
    expect(await failure(assertDeliverableUrl('https://x.example.com/', {}, 'url', { resolve: resolvesTo('10.1.2.3') }))).toMatchObject({
      code: 'EGRESS_REFUSED',
    });
    expect(await failure(assertDeliverableUrl('https://x.invalid/', {}, 'url', { resolve: nowhere }))).toMatchObject({ code: 'EGRESS_REFUSED' });
    expect(await failure(assertDeliverableUrl('https://x.example.com/', {}, 'url', { resolve: resolvesTo('93.184.216.34') }))).toBeNull();
  });
});
