/**
 * Lets plain `node` load this repo's TypeScript (there is no ts-node here): each .ts is
 * compiled with @swc/core on require, and `@cds/<lib>` resolves to libs/<lib>/src.
 * Used by the crash test's child process and by the append benchmark:
 *   node -r ./libs/event-log/test/swc-register.js script.js
 */
const path = require('node:path');
const Module = require('node:module');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '../../..');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const m = /^@cds\/([^/]+)(\/.*)?$/.exec(request);
  return resolveFilename.call(this, m ? path.join(root, 'libs', m[1], 'src', m[2] ?? '') : request, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformFileSync(filename, {
    swcrc: false,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
