import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ata, contratacao, contrato, item, page, resultado, termo } from './pncp.js'

// A fake of PNCP's consultation API for the harvester's tests: pages of records in PNCP's shapes; a
// contratação's items and their results and a contrato's termos under /pncp (PNCP's own API: two items each,
// one result an item, one termo a contrato); and PNCP's misbehaviours on demand (429 as an HTML page without
// Retry-After, 400 past 50 a page, 422 past 365 days, 204 for nothing, slow pages, dropped connections). Never
// the real service.

export interface Misbehaviour {
  /** Which request it answers: the endpoint, a query parameter, the page; the first `times` matching requests. */
  endpoint?: string
  modality?: number
  page?: number
  times: number
  kind: 'html429' | 'retryAfter' | 'slow' | 'drop' | 'error500'
}

export interface LoggedRequest {
  endpoint: string
  params: Record<string, string>
  status: number
  /** When the request came (performance.now()). */
  at: number
}

/** How many contratações a modality has in a month: modality 6 has most, 8 some, the others none. */
export const COUNTS: Readonly<Record<number, number>> = { 6: 120, 8: 30 }

const DAY_MS = 86_400_000
const day = (compact: string) => `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`

/**
 * The records of a query: contratações of one modality, or contratos and atas (one of each per contratação of
 * modality 6).
 */
function records(endpoint: string, params: Record<string, string>): Record<string, unknown>[] {
  const from = day(params.dataInicial ?? '')
  const to = day(params.dataFinal ?? '')
  const months: string[] = []
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    const d = new Date(t).toISOString().slice(0, 10)
    if (d.endsWith('-15')) months.push(d.slice(0, 7)) // each month's records are published on its 15th
  }
  const updated = endpoint.endsWith('/atualizacao')
  const out: Record<string, unknown>[] = []
  for (const month of months) {
    const m = Number(month.slice(5, 7))
    const at = `${month}-15T10:00:00`
    if (endpoint.startsWith('/v1/contratacoes')) {
      const modality = Number(params.codigoModalidadeContratacao)
      for (let i = 1; i <= (COUNTS[modality] ?? 0); i++) {
        const sequence = m * 10_000 + modality * 1000 + i
        out.push(
          contratacao(sequence, {
            modalidadeId: modality,
            modalidadeNome: modality === 8 ? 'Dispensa de Licitação' : 'Pregão - Eletrônico',
            dataPublicacaoPncp: at,
            dataAtualizacaoGlobal: updated ? `${month}-20T10:00:00` : at,
            objetoCompra: updated ? `Objeto ${sequence}, retificado` : `Objeto ${sequence}`,
          }),
        )
      }
    } else if (endpoint.startsWith('/v1/contratos')) {
      for (let i = 1; i <= (COUNTS[6] ?? 0); i++) {
        const sequence = m * 10_000 + 6000 + i
        out.push(contrato(sequence, sequence, { dataPublicacaoPncp: at, dataAtualizacaoGlobal: at }))
      }
    } else if (endpoint.startsWith('/v1/atas')) {
      for (let i = 1; i <= (COUNTS[6] ?? 0); i++) {
        const sequence = m * 10_000 + 6000 + i
        out.push(ata(1, sequence, { dataPublicacaoPncp: at, dataAtualizacao: at }))
      }
    }
  }
  return out
}

export interface FakePncp {
  url: string
  log: LoggedRequest[]
  misbehave: Misbehaviour[]
  /** Milliseconds every answer waits. */
  delay: number
  close(): Promise<void>
}

export async function startFakePncp(): Promise<FakePncp> {
  const fake: FakePncp = { url: '', log: [], misbehave: [], delay: 0, close: async () => {} }
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const at = performance.now()
    const url = new URL(request.url ?? '/', 'http://pncp')
    const params = Object.fromEntries(url.searchParams)
    const endpoint = url.pathname
    const pageNumber = Number(params.pagina ?? '1')
    const answer = (
      status: number,
      body: string,
      type = 'application/json',
      headers: Record<string, string> = {},
    ) => {
      fake.log.push({ endpoint, params, status, at })
      response.writeHead(status, { 'content-type': type, ...headers })
      response.end(body)
    }
    if (fake.delay > 0) await new Promise((resolve) => setTimeout(resolve, fake.delay))
    const bad = fake.misbehave.find(
      (b) =>
        b.times > 0 &&
        (b.endpoint === undefined || b.endpoint === endpoint) &&
        (b.modality === undefined || String(b.modality) === params.codigoModalidadeContratacao) &&
        (b.page === undefined || b.page === pageNumber),
    )
    if (bad) {
      bad.times--
      if (bad.kind === 'drop') {
        fake.log.push({ endpoint, params, status: 0, at })
        request.socket.destroy()
        return
      }
      if (bad.kind === 'slow') {
        await new Promise((resolve) => setTimeout(resolve, 1500))
        if (response.destroyed || request.socket.destroyed) return
      }
      if (bad.kind === 'html429')
        return answer(429, '<!DOCTYPE html><html><body><h1>Too Many Requests</h1></body></html>', 'text/html')
      if (bad.kind === 'retryAfter') return answer(503, '', 'text/plain', { 'retry-after': '1' })
      if (bad.kind === 'error500') return answer(500, '{"message":"Erro interno"}')
    }
    if (Number(params.tamanhoPagina ?? '10') > 50)
      return answer(400, JSON.stringify({ message: 'Tamanho de página inválido' }))
    const child = /^\/pncp\/v1\/orgaos\/\d{14}\/compras\/\d{4}\/\d+\/itens(?:\/(\d+)\/resultados)?$/.exec(
      endpoint,
    )
    if (/^\/pncp\/v1\/orgaos\/\d{14}\/contratos\/\d{4}\/\d+\/termos$/.test(endpoint))
      return answer(200, JSON.stringify([termo(1)]))
    if (child) {
      if (child[1] !== undefined) return answer(200, JSON.stringify([resultado(Number(child[1]))]))
      const items = [item(1), item(2, { unidadeMedida: 'UN', descricao: 'Seringa descartável 10 ml' })]
      const size = Number(params.tamanhoPagina ?? '10')
      const slice = items.slice((pageNumber - 1) * size, pageNumber * size)
      return slice.length === 0 ? answer(204, '') : answer(200, JSON.stringify(slice))
    }
    const from = Date.parse(`${day(params.dataInicial ?? '')}T00:00:00Z`)
    const to = Date.parse(`${day(params.dataFinal ?? '')}T00:00:00Z`)
    if (Number.isNaN(from) || Number.isNaN(to))
      return answer(400, JSON.stringify({ message: 'Data inválida' }))
    if ((to - from) / DAY_MS > 365)
      return answer(422, JSON.stringify({ message: 'Período maior que 365 dias' }))
    if (endpoint.startsWith('/v1/contratacoes') && params.codigoModalidadeContratacao === undefined)
      return answer(400, JSON.stringify({ message: 'codigoModalidadeContratacao obrigatório' }))
    const all = records(endpoint, params)
    const size = Number(params.tamanhoPagina ?? '10')
    const pages = Math.ceil(all.length / size)
    if (all.length === 0 || pageNumber > pages) return answer(204, '')
    const body = page(all.slice((pageNumber - 1) * size, pageNumber * size), pageNumber, pages)
    return answer(200, JSON.stringify({ ...body, totalRegistros: all.length }))
  }
  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return fake
}
