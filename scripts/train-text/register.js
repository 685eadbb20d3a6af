/* Runs the TypeScript training/eval scripts without a build step: compiles .ts on require
 * with @swc/core (already a devDependency) and resolves the @cds/<lib> path aliases. */
const fs = require('fs');
const path = require('path');
const Module = require('module');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../..');
const originalResolve = Module._resolveFilename;
Module._resolveFilename = function resolveAlias(request, ...rest) {
  const m = /^@cds\/([^/]+)(\/.*)?$/.exec(request);
  const target = m ? path.join(root, 'libs', m[1], 'src', m[2] || '') : request;
  return originalResolve.call(this, target, ...rest);
};

require.extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, {
    filename,
    swcrc: false,
    sourceMaps: 'inline',
    // decorators: @cds/providers' index reaches the Nest module files
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
