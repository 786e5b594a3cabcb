import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, it } from 'node:test'
import { promisify } from 'node:util'
import { clientTypes } from '../scripts/client-types.js'

// An outside tool's view of the published contract: openapi-typescript generates types from
// docs/openapi.json (with the client package's one transform: open enums keep a string fallback), and a
// small client written against them must type-check (and a wrong one must not).

const run = promisify(execFile)
const root = new URL('..', import.meta.url).pathname

const CLIENT = `import type { components, paths } from './schema.js'

type Order = components['schemas']['Order']
type OrderAnswer = paths['/external/orders']['get']['responses'][200]['content']['application/json']
type OrderQuery = paths['/external/orders']['get']['parameters']['query']
type Contract = components['schemas']['Contract']
type ContractAnswer = paths['/v1/transparency/contracts/{id}']['get']['responses'][200]['content']['application/json']
type Page = components['schemas']['ContractPage']
type ExportProblem = paths['/v1/transparency/export']['get']['responses'][422]['content']['application/json']
type Bidding = components['schemas']['Bidding']

export const query: OrderQuery = { order_number: '000001/2026' }
export function total(answer: OrderAnswer): number {
  const order: Order = answer.data
  return order.amount_total + order.items.reduce((sum, item) => sum + item.amount_total, 0)
}
export function describe(answer: ContractAnswer): string {
  const contract: Contract = answer.data
  const nullable: string | null = contract.bidding_number
  return \`\${contract.contract_number}: \${contract.amount_total} \${nullable ?? ''} \${contract.managers[0]?.cpf}\`
}
export const firstId = (page: Page): string | undefined => page.data[0]?.id
export const problem = (answer: ExportProblem): string => (answer.success ? '' : answer.message)
// An open enum: the values listed today, and any a later version adds.
export const known: Bidding['status'] = 'Homologado'
export const later: Bidding['status'] = 'Em consulta pública'
export const later2: components['schemas']['ContractItem']['management_status'] = 'Prorrogado'

// The types are not loose: each line below must fail, or the unused directive fails the check.
// @ts-expect-error a field the contract does not have
export const missing = (contract: Contract) => contract.numero
// @ts-expect-error the order number is text
export const wrong: OrderQuery = { order_number: 1 }
// @ts-expect-error an order's status is one of the four the interface lists (a closed enum)
export const closed: Order['status_title'] = 'Cancelada'
// @ts-expect-error so is a modality (spec 2.3)
export const modality: Bidding['modality'] = 'Leilão'
// @ts-expect-error money in a contract is text, not a number
export const money = (contract: Contract): number => contract.amount_total
`

/** Type-checks the client in dir, strictly, as a project of its own would. */
async function typeCheck(dir: string, client: string): Promise<{ ok: boolean; output: string }> {
  writeFileSync(path.join(dir, 'client.ts'), client)
  try {
    await run(process.execPath, [
      path.join(root, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      path.join(dir, 'client.ts'),
    ])
    return { ok: true, output: '' }
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) }
  }
}

describe('the published OpenAPI document, read by a generator', () => {
  it('gives openapi-typescript types that a small client type-checks against', async () => {
    const document = JSON.parse(readFileSync(path.join(root, 'docs/openapi.json'), 'utf8'))
    const types = await clientTypes(document)
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-client-'))
    try {
      writeFileSync(path.join(dir, 'schema.ts'), types)
      symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
      const checked = await typeCheck(dir, CLIENT)
      assert.ok(checked.ok, checked.output)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
