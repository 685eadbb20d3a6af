import { LookupFunction } from 'node:net';
import { requestOptions } from './http-delivery';

const target = (url: string, addresses: string[]) => ({ url: new URL(url), addresses });
const body = '{"text":"héllo"}';

function lookupOf(url: string, addresses: string[], all: boolean): unknown[] {
  const lookup = requestOptions(target(url, addresses), { body, headers: {} }).lookup as LookupFunction;
  let answer: unknown[] = [];
  lookup('rebound.example.com', { all }, (...args: unknown[]) => (answer = args));
  return answer;
}

describe('requestOptions', () => {
  it('names the original host and port while pinning the vetted addresses', () => {
    const options = requestOptions(target('http://hooks.example.com:8080/in?x=1', ['93.184.215.14']), { body, headers: {} });
    expect(options).toMatchObject({ method: 'POST', host: 'hooks.example.com', port: '8080', path: '/in?x=1', agent: false });
    expect(options.headers).toMatchObject({ host: 'hooks.example.com:8080', 'content-length': '17' }); // é is two bytes
  });

  it('answers every lookup with the vetted addresses only, whatever name is asked', () => {
    expect(lookupOf('http://a.example.com/', ['93.184.215.14', '2606:4700::1'], true)).toEqual([
      null,
      [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
    ]);
    expect(lookupOf('http://a.example.com/', ['2606:4700::1', '93.184.215.14'], false)).toEqual([null, '2606:4700::1', 6]);
  });

  it('defaults the port from the scheme', () => {
    expect(requestOptions(target('https://a.example.com/', ['1.1.1.1']), { body, headers: {} }).port).toBe(443);
    expect(requestOptions(target('http://a.example.com/', ['1.1.1.1']), { body, headers: {} }).port).toBe(80);
  });

  it('sends TLS SNI for the host name without its trailing dot, and none for an IP', () => {
    expect(requestOptions(target('https://a.example.com./x', ['1.1.1.1']), { body, headers: {} }).servername).toBe('a.example.com');
    expect(requestOptions(target('https://1.1.1.1/x', ['1.1.1.1']), { body, headers: {} })).not.toHaveProperty('servername');
    expect(requestOptions(target('https://[2606:4700::1]/x', ['2606:4700::1']), { body, headers: {} })).not.toHaveProperty('servername');
    expect(requestOptions(target('http://a.example.com/', ['1.1.1.1']), { body, headers: {} })).not.toHaveProperty('servername');
  });

  it('strips IPv6 brackets from the connect host but keeps them in the Host header', () => {
    const options = requestOptions(target('http://[2606:4700::1]:81/', ['2606:4700::1']), { body, headers: {} });
    expect(options.host).toBe('2606:4700::1');
    expect(options.headers).toMatchObject({ host: '[2606:4700::1]:81' });
  });

  it("keeps the caller's headers but never lets them override Host or Content-Length", () => {
    const headers = { 'content-type': 'application/cloudevents+json', host: 'evil.example', 'content-length': '1', 'x-service-signature': 't=1,v1=ab' };
    const options = requestOptions(target('http://a.example.com/', ['1.1.1.1']), { body, headers });
    expect(options.headers).toEqual({
      'content-type': 'application/cloudevents+json',
      host: 'a.example.com',
      'content-length': '17',
      'x-service-signature': 't=1,v1=ab',
    });
  });
});
