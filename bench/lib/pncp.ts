import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { cnpjFrom } from '../../src/demo/tax-ids.js'
import { cpuTimes, stealPercent } from './drivers.js'
import { log } from './options.js'
import { medians } from './prices.js'
import { BIN, freshDatabase, startService, stop } from './processes.js'

// `npm run bench -- --pncp`: `compras pncp import` over a generated directory in PNCP's shapes (issue 68):
// contratações in pages of 50 with 5 items and 5 results each, contratos of a fifth of them, atas of a tenth.
// Measured: the first import's rate and peak resident memory, a second import of the same directory, and the
// peak memory of a directory a quarter the size (memory must not grow with the directory).

export interface PncpRun {
  seconds: number
  /** Of which the platform import (staging, checks, writes, documents), as the command reports it. */
  importSeconds: number
  peakRssMb: number
  cpuSeconds: number
}

export interface PncpFigures {
  contratacoes: number
  contratos: number
  atas: number
  items: number
  files: number
  megabytes: number
  first: PncpRun
  second: PncpRun
  quarter: PncpRun
  /** The first import again, into an empty database, with the heap limit docs/operations.md suggests. */
  capped: PncpRun
  /** The price research over the imported results, uncached (CACHE_MB=0): median milliseconds of 21. */
  research: {
    common: { q: string; items: number; medianMs: number }
    rare: { q: string; items: number; medianMs: number }
  }
  stealPercent: number
}

const PAGE = 50
/** The heap limit of the capped run (docs/operations.md, "Memory"). */
const HEAP_LIMIT_MB = 200
const ORGANS = 500

const pad = (n: number, width: number) => String(n).padStart(width, '0')
const cnpj = (n: number) => cnpjFrom([...pad(n + 10_000, 8), 0, 0, 0, 1].map(Number))
const control = (organ: string, type: number, sequence: number) => `${organ}-${type}-${pad(sequence, 6)}/2025`
const page = (data: unknown[], n: number, pages: number) => ({
  data,
  totalRegistros: data.length,
  totalPaginas: pages,
  numeroPagina: n,
  paginasRestantes: pages - n,
  empty: data.length === 0,
})
const UNITS = ['UN', 'Unidade', 'UNID', 'und.', 'CX', 'Caixa', 'KG', 'Litro']
/** What the items are: each contratação's five are five of these, so that each is about 1/40 of the prices. */
const PRODUCTS = Array.from(
  { length: 40 },
  (_, n) => `Material de consumo modelo ${n + 1}, conforme termo de referência`,
)
/** A rare item: one in 10,000 contratações has it. */
const RARE = 'Desfibrilador externo automático com pás para adulto e criança'

/** Writes the directory; returns how many files and bytes it holds. */
export function generate(dir: string, contratacoes: number): { files: number; bytes: number } {
  rmSync(dir, { recursive: true, force: true })
  let files = 0
  let bytes = 0
  const write = (name: string, value: unknown) => {
    const at = path.join(dir, name)
    mkdirSync(path.dirname(at), { recursive: true })
    const text = JSON.stringify(value)
    writeFileSync(at, text)
    files++
    bytes += text.length
  }
  const organ = (i: number) => ({
    cnpj: cnpj(i % ORGANS),
    razaoSocial: `MUNICIPIO ${i % ORGANS}`,
    poderId: 'E',
    esferaId: 'M',
  })
  const unit = (i: number) => ({
    ufNome: 'São Paulo',
    codigoUnidade: String(i % 7),
    nomeUnidade: `SECRETARIA ${i % 7}`,
    ufSigla: 'SP',
    municipioNome: `Município ${i % ORGANS}`,
    codigoIbge: String(3_500_000 + (i % ORGANS)),
  })
  const sequence = (i: number) => Math.floor(i / ORGANS) + 1
  const pages = Math.ceil(contratacoes / PAGE)
  for (let p = 0; p < pages; p++) {
    const data: unknown[] = []
    for (let i = p * PAGE; i < Math.min(contratacoes, (p + 1) * PAGE); i++) {
      const o = organ(i)
      const modality = [6, 6, 6, 8, 8, 9, 4][i % 7] as number
      data.push({
        valorTotalEstimado: 1000 + (i % 997) * 13.5,
        valorTotalHomologado: i % 3 === 0 ? 900 + (i % 997) * 12.25 : null,
        numeroControlePNCP: control(o.cnpj, 1, sequence(i)),
        anoCompra: 2025,
        sequencialCompra: sequence(i),
        numeroCompra: String(90_000 + sequence(i)),
        processo: `${i}/2025`,
        orgaoEntidade: o,
        unidadeOrgao: unit(i),
        modalidadeId: modality,
        modalidadeNome: 'Pregão - Eletrônico',
        modoDisputaId: modality === 8 ? 4 : 1,
        modoDisputaNome: 'Aberto',
        amparoLegal: { codigo: 1, nome: 'Lei 14.133/2021, Art. 28, I', descricao: '' },
        objetoCompra: `Aquisição de material de consumo, lote ${i}`,
        srp: i % 2 === 0,
        dataPublicacaoPncp: '2025-03-03T10:15:02',
        dataAberturaProposta: '2025-03-04T08:00:00',
        dataEncerramentoProposta: '2025-03-18T09:00:00',
        situacaoCompraId: 1,
        situacaoCompraNome: 'Divulgada no PNCP',
        dataAtualizacaoGlobal: '2025-03-03T10:15:02',
      })
    }
    write(`contratacoes/publicacao/2025-03/pagina-${pad(p + 1, 5)}.json`, page(data, p + 1, pages))
  }
  // 5 items and their results per contratação, one file per contratação each, as PNCP serves them.
  for (let i = 0; i < contratacoes; i++) {
    const id = control(organ(i).cnpj, 1, sequence(i))
    const items = Array.from({ length: 5 }, (_, k) => ({
      numeroControlePNCP: id,
      numeroItem: k + 1,
      descricao: k === 0 && i % 10_000 === 0 ? RARE : (PRODUCTS[(i + k * 7) % PRODUCTS.length] as string),
      materialOuServico: 'M',
      unidadeMedida: UNITS[(i + k) % UNITS.length],
      quantidade: 10 + k,
      valorUnitarioEstimado: 1.5 + k,
      valorTotal: (10 + k) * (1.5 + k),
    }))
    const results = items.map((item) => ({
      numeroControlePNCPCompra: id,
      numeroItem: item.numeroItem,
      niFornecedor: cnpj(5000 + (i % 3000)),
      tipoPessoa: 'PJ',
      nomeRazaoSocialFornecedor: `FORNECEDOR ${i % 3000}`,
      quantidadeHomologada: item.quantidade,
      valorUnitarioHomologado: item.valorUnitarioEstimado * 0.9,
      valorTotalHomologado: item.valorTotal * 0.9,
      dataResultado: '2025-03-20',
    }))
    write(`itens/${pad(Math.floor(i / 1000), 3)}/${pad(i, 6)}.json`, items)
    write(`resultados/${pad(Math.floor(i / 1000), 3)}/${pad(i, 6)}.json`, results)
  }
  const contratos = Math.floor(contratacoes / 5)
  for (let p = 0; p < Math.ceil(contratos / PAGE); p++) {
    const data: unknown[] = []
    for (let c = p * PAGE; c < Math.min(contratos, (p + 1) * PAGE); c++) {
      const i = c * 5 // a pregão or dispensa of the same organ
      const o = organ(i)
      data.push({
        numeroControlePncpCompra: control(o.cnpj, 1, sequence(i)),
        numeroControlePNCP: control(o.cnpj, 2, sequence(i)),
        anoContrato: 2025,
        sequencialContrato: sequence(i),
        numeroContratoEmpenho: `${c}/2025`,
        tipoContrato: { id: 1, nome: 'Contrato (termo inicial)' },
        objetoContrato: `Fornecimento, contrato ${c}`,
        orgaoEntidade: o,
        unidadeOrgao: unit(i),
        tipoPessoa: 'PJ',
        niFornecedor: cnpj(5000 + (c % 3000)),
        nomeRazaoSocialFornecedor: `FORNECEDOR ${c % 3000}`,
        valorInicial: 48_000,
        valorGlobal: 48_000,
        dataAssinatura: '2025-04-01',
        dataVigenciaInicio: '2025-04-01',
        dataVigenciaFim: '2026-03-31',
        dataPublicacaoPncp: '2025-04-02T11:00:00',
        dataAtualizacaoGlobal: '2025-04-02T11:00:00',
      })
    }
    write(`contratos/publicacao/2025-04/pagina-${pad(p + 1, 5)}.json`, page(data, p + 1, 1))
  }
  const atas = Math.floor(contratacoes / 10)
  for (let p = 0; p < Math.ceil(atas / PAGE); p++) {
    const data: unknown[] = []
    for (let a = p * PAGE; a < Math.min(atas, (p + 1) * PAGE); a++) {
      const i = a * 10
      const compra = control(organ(i).cnpj, 1, sequence(i))
      data.push({
        numeroControlePNCPAta: `${compra}-000001`,
        numeroAtaRegistroPreco: `${a}/2025`,
        anoAta: 2025,
        numeroControlePNCPCompra: compra,
        cancelado: false,
        dataAssinatura: '2025-04-01',
        vigenciaInicio: '2025-04-01',
        vigenciaFim: '2026-03-31',
        dataPublicacaoPncp: '2025-04-02T10:00:00',
        dataAtualizacao: '2025-04-02T10:00:00',
        objetoContratacao: `Registro de preços, ata ${a}`,
        cnpjOrgao: organ(i).cnpj,
        nomeOrgao: organ(i).razaoSocial,
        codigoUnidadeOrgao: unit(i).codigoUnidade,
        nomeUnidadeOrgao: unit(i).nomeUnidade,
      })
    }
    write(`atas/publicacao/2025-04/pagina-${pad(p + 1, 5)}.json`, page(data, p + 1, 1))
  }
  return { files, bytes }
}

/** Runs `compras pncp import DIR`, sampling the child's peak resident memory (VmHWM) until it ends. */
function importDirectory(url: string, dir: string, nodeArgs: readonly string[] = []): Promise<PncpRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [...nodeArgs, BIN, 'pncp', 'import', dir], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let peak = 0
    let cpu = 0
    const sample = () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
        peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024)
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
        cpu = (Number(stat[11]) + Number(stat[12])) / 100 // utime + stime, in ticks of 1/100 s
      } catch {
        // Gone between two samples.
      }
    }
    const timer = setInterval(sample, 100)
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => {
      clearInterval(timer)
      if (code !== 0) return reject(new Error(`pncp import exited ${code}: ${output.slice(-2000)}`))
      log(`pncp: ${output.trim().split('\n')[0]}`)
      resolve({
        seconds: (performance.now() - started) / 1000,
        // The command reports the platform import's own seconds: "(33.9 s)".
        importSeconds: Number(/\(([\d.]+) s\)/.exec(output)?.[1] ?? Number.NaN),
        peakRssMb: peak / 1024 / 1024,
        cpuSeconds: cpu,
      })
    })
  })
}

export async function benchPncp(adminUrl: string, contratacoes: number): Promise<PncpFigures> {
  const root = path.join(os.tmpdir(), 'compras-bench-pncp')
  const full = path.join(root, 'full')
  const quarterDir = path.join(root, 'quarter')
  log(`pncp: generating ${contratacoes} contratações with 5 items and results each`)
  const made = generate(full, contratacoes)
  generate(quarterDir, Math.floor(contratacoes / 4))
  log(`pncp: ${made.files} files, ${(made.bytes / 1e6).toFixed(0)} MB`)
  const before = cpuTimes()
  const url = await freshDatabase(adminUrl, 'compras_bench_pncp')
  const first = await importDirectory(url, full)
  log(`pncp: first import ${first.seconds.toFixed(1)} s, peak ${first.peakRssMb.toFixed(0)} MB`)
  const second = await importDirectory(url, full)
  log(`pncp: second import ${second.seconds.toFixed(1)} s`)
  const research = await measureResearch(url, path.join(root, 'serve.log'))
  log(
    `pncp: price research, uncached: ${research.common.medianMs} ms common, ${research.rare.medianMs} ms rare`,
  )
  const quarterUrl = await freshDatabase(adminUrl, 'compras_bench_pncp_quarter')
  const quarter = await importDirectory(quarterUrl, quarterDir)
  log(`pncp: a quarter of it ${quarter.seconds.toFixed(1)} s, peak ${quarter.peakRssMb.toFixed(0)} MB`)
  const cappedUrl = await freshDatabase(adminUrl, 'compras_bench_pncp_capped')
  const capped = await importDirectory(cappedUrl, full, [`--max-old-space-size=${HEAP_LIMIT_MB}`])
  log(
    `pncp: with a heap limit of ${HEAP_LIMIT_MB} MB ${capped.seconds.toFixed(1)} s, peak ${capped.peakRssMb.toFixed(0)} MB`,
  )
  const steal = stealPercent(before, cpuTimes())
  rmSync(root, { recursive: true, force: true })
  return {
    contratacoes,
    contratos: Math.floor(contratacoes / 5),
    atas: Math.floor(contratacoes / 10),
    items: contratacoes * 5,
    files: made.files,
    megabytes: made.bytes / 1e6,
    first,
    second,
    quarter,
    capped,
    research,
    stealPercent: steal,
  }
}

/** The price research over the imported results: the most common description's and the rare one's, uncached. */
async function measureResearch(url: string, logFile: string): Promise<PncpFigures['research']> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const counted = await client
    .query<{ description: string; items: number }>(
      `SELECT d.description, count(*)::int AS items FROM price_results p
       JOIN item_descriptions d ON d.id = p.description_id GROUP BY d.description ORDER BY items DESC`,
    )
    .finally(() => client.end())
  const common = counted.rows[0] ?? { description: RARE, items: 0 }
  const rare = counted.rows.find((row) => row.description === RARE) ?? { description: RARE, items: 0 }
  const service = await startService(url, logFile, undefined, { CACHE_MB: '0' })
  try {
    const ask = async (description: string) => {
      const q = encodeURIComponent(`"${description}"`)
      return (await medians([service.base], `/v1/transparency/prices?q=${q}&source=result`))[0] as number
    }
    return {
      common: { q: common.description, items: common.items, medianMs: await ask(common.description) },
      rare: { q: rare.description, items: rare.items, medianMs: await ask(rare.description) },
    }
  } finally {
    await stop(service.child)
  }
}

/** The report of a --pncp run. */
export function pncpMarkdown(f: PncpFigures, machine: string): string {
  const rate = f.contratacoes / f.first.seconds
  return `# PNCP import (\`npm run bench -- --pncp\`)

Command: \`npm run bench -- --pncp${f.contratacoes === 100_000 ? '' : ` ${f.contratacoes}`}\`. Machine: ${machine}. CPU stolen by the
host during the run: ${f.stealPercent}%.

A generated directory in PNCP's shapes: ${f.contratacoes.toLocaleString('en')} contratações in pages of 50,
each with 5 items and 5 results (${f.items.toLocaleString('en')} of each, one file per contratação),
${f.contratos.toLocaleString('en')} contratos and ${f.atas.toLocaleString('en')} atas: ${f.files.toLocaleString('en')} files,
${f.megabytes.toFixed(0)} MB. Items and results are imported inside their contratações (and their results join the price
research); atas are imported as ARPs of their contratações (docs/pncp-mapping.md).

| run | seconds | of which the platform import | CPU seconds (importer process) | peak resident memory |
|---|---|---|---|---|
${(
  [
    ['first import, into an empty database', f.first],
    ['the same directory again', f.second],
    ['a quarter of the directory, into an empty database', f.quarter],
    [`the first again, node --max-old-space-size=${HEAP_LIMIT_MB}`, f.capped],
  ] as const
)
  .map(
    ([name, r]) =>
      `| ${name} | ${r.seconds.toFixed(1)} | ${r.importSeconds.toFixed(1)} | ${r.cpuSeconds.toFixed(1)} | ${r.peakRssMb.toFixed(0)} MB |`,
  )
  .join('\n')}

- Contratações a second, with their contratos and atas: **${Math.round(rate).toLocaleString('en')}** (goal: at least 2,000).
- Second import: **${Math.round((f.second.seconds / f.first.seconds) * 100)}%** of the first's time (goal: at most 20%).
- Price research over the imported results, uncached (CACHE_MB=0, the median of 21 requests one at a time): the
  most common description, ${f.research.common.items.toLocaleString('en')} prices, **${f.research.common.medianMs} ms** (goal: < 300 ms);
  a rare one, ${f.research.rare.items} prices, **${f.research.rare.medianMs} ms** (goal: < 50 ms).
- Peak resident memory: ${f.first.peakRssMb.toFixed(0)} MB for the whole directory, ${f.quarter.peakRssMb.toFixed(0)} MB
  for a quarter; ${f.capped.peakRssMb.toFixed(0)} MB for the whole with a ${HEAP_LIMIT_MB} MB heap (goal: under 300 MB,
  whatever the size).

What holds the rest: reading and mapping the files is the time outside the platform import (a harvest's
many small files: each is opened, read and parsed, and a contratação's items and results once more when its
line is made); the platform import itself (the NDJSON import's checks, staging and writes of a million owned
rows, the documents and OCDS releases that show them, and the price projection of half a million results) is
most of the time. In memory, an import holds each file's name and state and each contratação of the run (a contract
takes its modality from it), so the live set grows with the directory, and V8 lets its heap fill with garbage
well past what is alive before it collects; the two worker threads that check lines have heaps of their own.
`
}
