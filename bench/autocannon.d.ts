declare module 'autocannon' {
  const autocannon: (opts: Record<string, unknown>) => Promise<any>;
  export default autocannon;
}
