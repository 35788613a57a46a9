#!/usr/bin/env node
// Runs before `npm start`, `npm test`, `npm run ops` and `npm run sandbox`. It is plain
// CommonJS with no dependencies so that any Node can run it, even one too old to load the
// TypeScript sources (which would otherwise die with ERR_UNKNOWN_FILE_EXTENSION ".ts").
// The required range is package.json's `engines.node`: one source of truth. After `npm ci`,
// npm's scripts find Node 24 first on PATH (node_modules/.bin/node, from the development
// dependency `node`), so this refuses only where that is missing: before `npm ci`, with
// `--omit=dev`, or when a command is run with a bare `node` outside npm's scripts.
'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const range = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).engines.node;

function parse(v) {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(String(v).trim());
  return m ? [Number(m[1]), Number(m[2] || 0), Number(m[3] || 0)] : null;
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

// Understands the forms engines uses here: `^x.y.z`, `>=x.y.z`, joined by `||`.
function satisfies(version, spec) {
  return spec.split('||').some((part) => {
    const p = part.trim();
    const min = parse(p.replace(/^(\^|>=)/, ''));
    if (min === null) return false;
    if (compare(version, min) < 0) return false;
    return p.startsWith('^') ? version[0] === min[0] : true;
  });
}

const running = parse(process.versions.node);
if (!satisfies(running, range)) {
  process.stderr.write(
    `This project needs Node.js ${range}; this is Node.js ${process.versions.node}. ` +
      'Run `npm ci` first (it installs Node 24 for the npm scripts), or install Node 24 LTS (https://nodejs.org/en/download), then run the command again.\n',
  );
  process.exit(1);
}
