// The `smpp` package (node-smpp) ships no types; the tests use a few of its calls, typed loosely in smpp-client.ts.
declare module 'smpp' {
  const smpp: {
    connect(options: { url: string }): any;
    PDU: new (command: string, fields?: Record<string, unknown>) => any;
  };
  export default smpp;
}
