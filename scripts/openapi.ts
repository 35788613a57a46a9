/**
 * `npm run openapi`: captures the examples from real sandbox answers
 * (src/surfaces/rest/openapi-examples.json), then writes the OpenAPI document to docs/openapi.json.
 * Run it after changing an operation, a contract schema or an answer the examples show.
 */
import { writeFileSync } from 'node:fs';
import { buildOpenApi } from '../src/surfaces/rest/openapi.ts';
import { OPERATIONS } from '../src/operations/index.ts';
import { captureExamples, EXAMPLES_FILE, writeExamples } from './openapi-examples.ts';

const examples = await captureExamples();
writeExamples(examples);
const target = new URL('../docs/openapi.json', import.meta.url);
const text = `${JSON.stringify(buildOpenApi(OPERATIONS, '/open/v1', examples), null, 2)}\n`;
writeFileSync(target, text);
console.log(`wrote ${EXAMPLES_FILE.pathname}`);
console.log(`wrote ${target.pathname} (${OPERATIONS.length} operations, ${Math.round(text.length / 1024)} KiB)`);
