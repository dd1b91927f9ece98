import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from './openapi.js';

/**
 * `npm run sdk:generate` writes the typed client's types from the service's own OpenAPI
 * document; `npm run sdk:generate -- --check` (CI) fails when the committed file differs,
 * so the client never drifts from the API.
 */
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../sdk/api-types.ts');
const header = `/**
 * Types of the Supplier Marketplace API, generated from its OpenAPI document by
 * \`npm run sdk:generate\` (openapi-typescript). Do not edit: CI fails when it drifts.
 */

`;

const doc = await openApiDocument();
const text = header + astToString(await openapiTS(doc as never, { alphabetize: true }));
if (!process.argv.includes('--check')) {
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
} else {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing counts as drift
  }
  if (current !== text) {
    console.error(
      'src/sdk/api-types.ts is not what the API document generates: run npm run sdk:generate and commit it',
    );
    process.exitCode = 1;
  } else console.log('src/sdk/api-types.ts matches the API document');
}
