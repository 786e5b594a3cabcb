import { BIDDING_MODALITIES, BIDDING_STATUSES } from '../domain.js'
import { day, money as reais } from '../format.js'
import { type CommittedKind, commitments } from '../parties/parties.js'
import { money } from '../resources/sql.js'
import { LAW_IN_FORCE, limitsSql } from './limits.js'

// The integrity indicators (red flags), each declared once: its code (the Open Contracting Partnership's where
// one exists, else BR- and a name), its title and legal basis in Portuguese, the SQL that finds its flags, and
// the one sentence that gives a flag's reason from its figures. docs/indicators.md gives each rule, its basis
// and its known false positives. A flag is a reason to open the record, never a verdict.

/** The rules' version: a change of any rule bumps it, and `compras migrate` (or serve) computes every flag again. */
export const INDICATORS_VERSION = 'indicators-2'

/** A flag's figures, as its rule found them: money as text with two decimals, shares and counts as numbers. */
export type FlagFigures = Readonly<Record<string, string | number>>

/**
 * What a rule's flags are computed again for when an import touches records (src/indicators/project.ts):
 * - `record`: one flag per record of `table` (its key is the code and the record's id), for the records touched;
 * - `year`: flags of an organization's year, for the years whose records changed, before or after;
 * - `prices`: flags of a price (R017), for the descriptions whose prices changed and the records touched;
 * - `all`: comparisons between organizations, made again whole from every organization's year.
 */
export type IndicatorScope =
  | { readonly kind: 'record'; readonly table: 'biddings' | 'contracts' }
  | { readonly kind: 'year' }
  | { readonly kind: 'prices' }
  | { readonly kind: 'all' }

/** What a rule's SQL reads of the import's scope: conditions that hold for everything when all is computed. */
export interface Scope {
  /** A condition on a bidding's id, a contract's id: the records in scope. */
  readonly biddings: (id: string) => string
  readonly contracts: (id: string) => string
  /** A condition on an organization's id, and on its year: the organizations' years in scope. */
  readonly organizations: (organization: string) => string
  readonly years: (organization: string, year: string) => string
  /** The relation of the commitments of the years in scope (integrity_commitments' columns). */
  readonly commitments: string
  /** The relation of the prices in scope (PRICES_IN_SCOPE's columns). */
  readonly prices: string
}

export interface Indicator {
  readonly code: string
  /** What it flags, in a few words. */
  readonly title: string
  /** The article of Lei 14.133/2021 (or the practice) it stands on. */
  readonly basis: string
  /** What it looks for, in plain Portuguese, for its page on the portal. */
  readonly meaning: string
  /** What a flag does not say: where it is wrong and why a record may be right. */
  readonly caveat: string
  readonly scope: IndicatorScope
  /** The flags in scope, as rows of (key, code, organization_id, year, supplier_ids, records, figures). */
  readonly sql: (scope: Scope) => string
  /** The reason of a flag, in one Portuguese sentence, from its figures. */
  readonly reason: (figures: FlagFigures) => string
  /**
   * Where Cardinal's output (open-contracting/cardinal-rs) puts a flag: under its process (OCID), its organ
   * (Buyer) or its suppliers (Tenderer), and the decimal it gives there.
   */
  readonly cardinal: {
    readonly groups: readonly CardinalGroup[]
    readonly value: (figures: FlagFigures) => number
  }
}

/** Cardinal's groups that flags take. */
export type CardinalGroup = 'OCID' | 'Buyer' | 'Tenderer'

const ratio = (a: string | number | undefined, b: string | number | undefined) => Number(a) / Number(b)

/** The ids of names of a closed list (id = index + 1, src/domain.ts), for an IN (...). */
const idsOf = <N extends string>(list: readonly N[], ...names: N[]) =>
  names.map((name) => list.indexOf(name) + 1).join(', ')
const modalityIds = (...names: (typeof BIDDING_MODALITIES)[number][]) => idsOf(BIDDING_MODALITIES, ...names)
const statusIds = (...names: (typeof BIDDING_STATUSES)[number][]) => idsOf(BIDDING_STATUSES, ...names)

/** The calendar year of an instant in Brasília, where the budget year is counted. */
export const yearOf = (instant: string) =>
  `extract(year FROM ${instant} AT TIME ZONE 'America/Sao_Paulo')::int`

/** A record a flag names, for its `records`. */
const record = (resource: string, id: string, expression = false) =>
  `jsonb_build_object('resource', ${expression ? resource : `'${resource}'`}, 'id', ${id})`

const share = (sql: string) => `round((${sql})::numeric, 6)::float8`
/** A share of an amount of money, in cents rounded half up, as the rules compare money. */
const cents = (sql: string) => `round(${sql}, 2)`

/** A legal basis (PNCP's amparoLegal.nome, "Lei 14.133/2021, Art. 75, II") that is art. 75, I or II. */
const BY_VALUE = String.raw`art\.?\s*75\s*,\s*(inciso\s+)?(I|II)\M`
const WORKS = String.raw`art\.?\s*75\s*,\s*(inciso\s+)?I\M`

/**
 * Direct contracts by value under Lei 14.133 that meet `condition` (on alias `b`): those whose legal basis is art.
 * 75, I or II, or, without one, a Dispensa; dated from the law on. Each with its year, value (its finished total
 * when it has one), inciso, and the limit in force that year (none past the last year the table knows: such a
 * contract is not judged).
 */
export const directByValue = (condition: string) => `
  SELECT d.*, CASE d.inciso WHEN 'I' THEN l.works ELSE l.other END AS cap, l.act
  FROM (SELECT b.id, b.organization_id, ${yearOf('b.opening_date')} AS year, b.opening_date,
          coalesce(b.sum_amount_total_finish, b.sum_amount_total) AS value,
          CASE WHEN b.legal_basis ~* '${WORKS}' THEN 'I' ELSE 'II' END AS inciso
        FROM biddings b
        WHERE b.kind = 'direct_contract' AND ${condition}
          AND b.opening_date >= '${LAW_IN_FORCE} 00:00-03'
          AND CASE WHEN b.legal_basis IS NULL THEN b.modality_id IN (${modalityIds('Dispensa sem Disputa', 'Dispensa Eletrônica')})
                   ELSE b.legal_basis ~* '${BY_VALUE}' END) d
  JOIN ${limitsSql('l')} ON l.year = d.year`

/** The suppliers of a bidding, as an array of ids. */
const providersOf = (bidding: string) =>
  `ARRAY(SELECT DISTINCT p.supplier_id FROM bidding_providers p WHERE p.bidding_id = ${bidding} ORDER BY 1)`

/** A share as a percentage with one decimal (98,8%), or as many more as tell it from `apart` when they differ. */
function percent(value: string | number, apart?: string | number): string {
  const format = (n: number, digits: number) =>
    `${(n * 100).toLocaleString('pt-BR', { minimumFractionDigits: digits, maximumFractionDigits: digits })}%`
  let digits = 1
  while (
    apart !== undefined &&
    Number(apart) !== Number(value) &&
    digits < 6 &&
    format(Number(value), digits) === format(Number(apart), digits)
  )
    digits++
  return format(Number(value), digits)
}

/** Within this share below the limit, a direct contract by value is flagged (OCP R055's 10%). */
const NEAR_LIMIT = 0.9
/** Art. 125: additions up to 25% of the initial value; 50% to reform a building or equipment. */
const ADDITIONS = 0.25
const REFORM_ADDITIONS = 0.5
/** An organization's year with fewer commitments than this is too small to say it leans on anyone. */
const MIN_COMMITMENTS = 5
/** Fences between organizations need this many of them in the year. */
const MIN_ORGANIZATIONS = 10

/**
 * The minimum proposal period of art. 55 where the criterion is known to be technique (IV: 35 working days),
 * else the least the article allows (I, a: 8 working days for goods at the lowest price or greatest discount).
 */
const MIN_DAYS_TECHNIQUE = 35
const MIN_DAYS = 8

/** The modalities whose calls compete (a sale, a call for registration or an adhesion do not). */
const COMPETITIVE = modalityIds(
  'Pregão Eletrônico',
  'Pregão Presencial',
  'Tomada de Preço',
  'Concorrência - Presencial',
  'Concorrência - Eletrônica',
  'Carta Convite',
  'Regime Diferenciado de Contratação',
  'Diálogo Competitivo',
  'Procedimento da Lei 13.393/2016',
)

/** Where art. 55's periods bind: the bidding modalities of Lei 14.133 that publish a call for proposals. */
const WITH_PROPOSAL_PERIOD = modalityIds(
  'Pregão Eletrônico',
  'Pregão Presencial',
  'Concorrência - Presencial',
  'Concorrência - Eletrônica',
)

/**
 * The commitments of the records that meet a condition by kind (`condition(kind)` on alias `x` of the kind's
 * table), each real once, as rows of integrity_commitments: those with a date and a supplier, with their year.
 * `biddings` narrows the direct contracts read to a SQL set of ids.
 */
export const commitmentRowsSql = (condition: (kind: CommittedKind) => string, biddings?: string) => `
  SELECT k.kind, k.organization_id, k.ref, k.supplier_id, extract(year FROM k.day)::int AS year, k.value, k.modality_id
  FROM (${commitments((supplier, kind) => `${supplier} IS NOT NULL AND ${condition(kind)}`, true, { biddings })}) k
  WHERE k.day IS NOT NULL`

/** A description's unit prices are fenced when it has this many in a unit (fewer say nothing of a norm). */
const MIN_PRICES = 10

/**
 * The price rows (price_items, price_results) that meet a condition by table (on alias `p`), as R017 reads
 * them: where each came from, its description, normalized unit, unit price, organization, supplier and day, and
 * its order (`order_id`) or its bidding's (`bidding_id`) and position.
 */
export const pricesSql = (condition: (table: 'price_items' | 'price_results') => string) => `
  SELECT 'order' AS source, p.description_id, p.unit, p.amount, p.organization_id, p.supplier_id, p.day,
    p.order_id, NULL::uuid AS bidding_id, p.position
  FROM price_items p WHERE ${condition('price_items')}
  UNION ALL SELECT 'result', p.description_id, p.unit, p.amount, p.organization_id, p.supplier_id, p.day,
    NULL::bigint, p.bidding_id, p.position
  FROM price_results p WHERE ${condition('price_results')}`

/**
 * The fences of the descriptions whose ids meet `condition` (on `description_id`), for each normalized unit of
 * MIN_PRICES prices or more: the quartiles interpolated in exact decimals and the upper fence Q3 + 1.5 × IQR, as
 * the price research computes them (src/prices/research.ts), here for one description and unit at a time. Each
 * unit's prices are read in order off the price tables' index.
 */
export const priceFencesSql = (condition: string) => `
  INSERT INTO price_fences (description_id, unit, prices, q1, median, q3, fence)
  SELECT g.description_id, g.unit, s.n, s.q1, s.median, s.q3, s.q3 + 1.5 * (s.q3 - s.q1)
  FROM (SELECT description_id, unit FROM price_rows WHERE ${condition}
        GROUP BY description_id, unit HAVING count(*) >= ${MIN_PRICES}) g
  CROSS JOIN LATERAL (
    SELECT x.n, compras_quantile(x.a, 0.25) AS q1, compras_quantile(x.a, 0.5) AS median,
      compras_quantile(x.a, 0.75) AS q3
    FROM (SELECT count(*)::int AS n, array_agg(p.amount ORDER BY p.amount) AS a FROM price_rows p
          WHERE p.description_id = g.description_id AND p.unit = g.unit) x) s`

/**
 * The key of R017's flag of a price row `p` (pricesSql's columns): its description (whose fences it is judged
 * by), then its order's id or its bidding's, and its position.
 */
export const priceFlagKey = (p: string) =>
  `'R017:' || ${p}.description_id || ':' || CASE WHEN ${p}.order_id IS NOT NULL THEN 'o' || ${p}.order_id
    ELSE 'r' || ${p}.bidding_id END || '-' || ${p}.position`

/** A description in a reason: whole up to this many characters, else cut at a word with an ellipsis. */
const DESCRIPTION_SHOWN = 90

function shortened(text: string): string {
  if (text.length <= DESCRIPTION_SHOWN) return text
  const cut = text.slice(0, DESCRIPTION_SHOWN)
  const space = cut.lastIndexOf(' ')
  return `${(space > DESCRIPTION_SHOWN / 2 ? cut.slice(0, space) : cut).replace(/[\s,;.:-]+$/, '')}…`
}

/** A count as pt-BR writes it (1.234). */
const count = (n: string | number) => Number(n).toLocaleString('pt-BR')

/** A ratio as pt-BR writes it, with one decimal (4,5). */
const times = (n: string | number) =>
  Number(n).toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })

/** A high outlier among organizations in a year: above Q3 + 1.5 × IQR of the column, as the price research fences. */
const fenced = (code: string, column: string, figure: string) => `
  SELECT '${code}:' || y.organization_id || ':' || y.year AS key, '${code}' AS code, y.organization_id, y.year,
    '{}'::bigint[] AS supplier_ids, jsonb_build_array(${record('organizations', 'y.organization_id::text')}) AS records,
    jsonb_build_object('${figure}', ${share(`y.${column}`)}, 'fence', ${share('f.fence')}, 'median', ${share('f.median')},
      'q1', ${share('f.q1')}, 'q3', ${share('f.q3')}, 'organizations', f.organizations, 'committed', ${money('y.committed')})
      AS figures
  FROM integrity_organization_years y
  JOIN (SELECT q.*, q.q3 + 1.5 * (q.q3 - q.q1) AS fence
        FROM (SELECT year, count(*)::int AS organizations,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY ${column}) AS median,
                percentile_cont(0.25) WITHIN GROUP (ORDER BY ${column}) AS q1,
                percentile_cont(0.75) WITHIN GROUP (ORDER BY ${column}) AS q3
              FROM integrity_organization_years WHERE commitments >= ${MIN_COMMITMENTS} GROUP BY year) q) f
    ON f.year = y.year AND f.organizations >= ${MIN_ORGANIZATIONS}
  WHERE y.commitments >= ${MIN_COMMITMENTS} AND y.${column} > f.fence`

export const INDICATORS = [
  {
    code: 'BR-LIMITE-DISPENSA',
    title: 'Dispensa por valor próxima do limite',
    basis: 'Lei 14.133/2021, art. 75, I e II (limites atualizados por decreto, art. 182)',
    meaning:
      'A lei permite contratar sem licitação compras e serviços de valor baixo (art. 75, I e II), até ' +
      'um limite atualizado todo ano. Uma dispensa logo abaixo do limite pode indicar um valor ajustado' +
      ' para caber nele.',
    caveat:
      'Muitas compras pequenas custam de fato perto do limite. O sinal não considera o objeto; uma ' +
      'dispensa de obra sem o amparo legal publicado é comparada ao limite menor.',
    scope: { kind: 'record', table: 'biddings' },
    sql: (scope) => `
      SELECT 'BR-LIMITE-DISPENSA:' || d.id AS key, 'BR-LIMITE-DISPENSA' AS code, d.organization_id, d.year,
        ${providersOf('d.id')} AS supplier_ids, jsonb_build_array(${record('direct-contracts', 'd.id::text')}) AS records,
        jsonb_build_object('value', ${money('d.value')}, 'limit', ${money('d.cap')}, 'share', ${share('d.value / d.cap')},
          'inciso', d.inciso, 'year', d.year, 'act', d.act) AS figures
      FROM (${directByValue(scope.biddings('b.id'))}) d
      WHERE d.value >= ${cents(`${NEAR_LIMIT} * d.cap`)} AND d.value <= d.cap`,
    cardinal: { groups: ['OCID'], value: (f) => Number(f.share) },
    reason: (f) =>
      `Dispensa de ${reais(f.value as string)}, ${percent(f.share as number)} do limite de ${reais(f.limit as string)} ` +
      `do art. 75, ${f.inciso} em ${f.year} (${f.act}).`,
  },
  {
    code: 'R011',
    title: 'Possível fracionamento de despesa',
    basis: 'Lei 14.133/2021, art. 75, § 1º (soma no exercício, por unidade e objeto)',
    meaning:
      'Dividir uma compra em partes menores para que cada uma caiba no limite da dispensa é proibido ' +
      '(art. 75, § 1º): a lei soma o que a unidade gasta no ano com objetos da mesma natureza. O sinal ' +
      'soma as dispensas por valor de um órgão ao mesmo fornecedor no ano.',
    caveat:
      'Compras diferentes a um mesmo fornecedor (os registros não dizem a natureza de cada objeto) e ' +
      'necessidades que surgiram ao longo do ano também somam. Um órgão com várias unidades gestoras é ' +
      'somado inteiro.',
    scope: { kind: 'year' },
    sql: (scope) => `
      SELECT 'R011:' || d.organization_id || ':' || d.year || ':' || d.inciso || ':' || p.supplier_id AS key,
        'R011' AS code, d.organization_id, d.year, ARRAY[p.supplier_id] AS supplier_ids,
        jsonb_agg(${record('direct-contracts', 'd.id::text')} ORDER BY d.opening_date, d.id) AS records,
        jsonb_build_object('total', ${money('sum(d.value)')}, 'limit', ${money('min(d.cap)')}, 'count', count(*)::int,
          'largest', ${money('max(d.value)')}, 'inciso', d.inciso, 'year', d.year, 'act', min(d.act)) AS figures
      FROM (${directByValue(scope.organizations('b.organization_id'))}) d
      CROSS JOIN LATERAL (SELECT DISTINCT bp.supplier_id FROM bidding_providers bp WHERE bp.bidding_id = d.id) p
      WHERE d.value <= d.cap AND ${scope.years('d.organization_id', 'd.year')}
      GROUP BY d.organization_id, d.year, d.inciso, p.supplier_id
      HAVING count(*) >= 2 AND sum(d.value) > min(d.cap)`,
    cardinal: { groups: ['Buyer', 'Tenderer'], value: (f) => ratio(f.total, f.limit) },
    reason: (f) =>
      `${f.count} dispensas por valor ao mesmo fornecedor em ${f.year} somam ${reais(f.total as string)}, acima do ` +
      `limite de ${reais(f.limit as string)} do art. 75, ${f.inciso}, embora cada uma esteja abaixo dele (a maior: ` +
      `${reais(f.largest as string)}).`,
  },
  {
    code: 'BR-ADITIVO-25',
    title: 'Aditivos acima do limite legal',
    basis: 'Lei 14.133/2021, art. 125 (25% do valor inicial; 50% na reforma de edifício ou equipamento)',
    meaning:
      'Os acréscimos a um contrato por termo aditivo estão limitados a 25% do valor inicial, ou 50% na ' +
      'reforma de edifício ou equipamento (art. 125). O sinal soma o que os termos aditivos publicados ' +
      'acrescentam.',
    caveat:
      'Um valor de contrato publicado já com os acréscimos, ou um termo que informa o novo total em vez' +
      ' do acréscimo, confundem a conta. Supressões não são descontadas.',
    scope: { kind: 'record', table: 'contracts' },
    sql: (scope) => `
      SELECT 'BR-ADITIVO-25:' || c.id AS key, 'BR-ADITIVO-25' AS code, c.organization_id,
        extract(year FROM c.date_start)::int AS year, ARRAY[c.supplier_id] AS supplier_ids,
        jsonb_build_array(${record('contracts', 'c.id::text')}) AS records,
        jsonb_build_object('initial', ${money('c.amount_total')}, 'added', ${money('t.added')},
          'share', ${share('t.added / c.amount_total')}, 'allowed', t.allowed, 'terms', t.terms) AS figures
      FROM contracts c
      CROSS JOIN LATERAL (SELECT sum(a.value) AS added, count(*)::int AS terms,
              CASE WHEN bool_or(a.description ~* 'reforma' OR a.kind ~* 'reforma') THEN ${REFORM_ADDITIONS}
                   ELSE ${ADDITIONS} END::float8 AS allowed
            FROM additive_terms a WHERE a.contract_id = c.id AND a.value > 0) t
      WHERE ${scope.contracts('c.id')} AND c.amount_total > 0 AND t.terms > 0
        AND t.added > ${cents('t.allowed::numeric * c.amount_total')}`,
    cardinal: { groups: ['OCID'], value: (f) => Number(f.share) },
    reason: (f) =>
      `${Number(f.terms) === 1 ? 'O termo aditivo acrescenta' : `Os ${f.terms} termos aditivos acrescentam`} ` +
      `${reais(f.added as string)}, ${percent(f.share as number, f.allowed)} do valor inicial de ` +
      `${reais(f.initial as string)}, acima dos ${percent(f.allowed as number)} do art. 125.`,
  },
  {
    code: 'R018',
    title: 'Licitação competitiva com um só fornecedor',
    basis: 'Lei 14.133/2021, art. 11 (competição); OCP R018',
    meaning:
      'Uma licitação competitiva (pregão, concorrência) concluída com um só fornecedor para todos os ' +
      'itens pode indicar pouca competição: edital restritivo, pouca divulgação ou combinação entre ' +
      'concorrentes.',
    caveat:
      'Os registros dizem quem venceu, não quantos disputaram: uma licitação de um lote pode ter tido ' +
      'muitos concorrentes. Licitações de um único item conhecido não são sinalizadas.',
    scope: { kind: 'record', table: 'biddings' },
    sql: (scope) => `
      SELECT 'R018:' || b.id AS key, 'R018' AS code, b.organization_id, ${yearOf('b.opening_date')} AS year,
        ${providersOf('b.id')} AS supplier_ids, jsonb_build_array(${record('public-calls', 'b.id::text')}) AS records,
        jsonb_build_object('value', ${money('coalesce(b.sum_amount_total_finish, b.sum_amount_total)')},
          'items', i.items) AS figures
      FROM biddings b
      CROSS JOIN LATERAL (SELECT count(*)::int AS items FROM bidding_items i WHERE i.bidding_id = b.id) i
      WHERE b.kind = 'public_call' AND ${scope.biddings('b.id')} AND b.opening_date IS NOT NULL
        AND b.modality_id IN (${COMPETITIVE})
        AND b.status_id IN (${statusIds('Adjudicado', 'Homologado', 'Concluído')})
        AND (SELECT count(DISTINCT p.supplier_id) FROM bidding_providers p WHERE p.bidding_id = b.id) = 1
        -- A call of one item has one winner whatever the competition: only calls of several items, or of items unknown.
        AND i.items <> 1`,
    cardinal: { groups: ['OCID'], value: () => 1 },
    reason: (f) =>
      Number(f.items) > 1
        ? `Licitação competitiva de ${f.items} itens, de ${reais(f.value as string)}, concluída com um só fornecedor para todos.`
        : `Licitação competitiva de ${reais(f.value as string)} concluída com um só fornecedor.`,
  },
  {
    code: 'BR-PRAZO-PROPOSTA',
    title: 'Prazo de propostas menor que o mínimo legal',
    basis: 'Lei 14.133/2021, art. 55 (prazos mínimos em dias úteis)',
    meaning:
      'A lei fixa prazos mínimos, em dias úteis, entre a divulgação do edital e a entrega das propostas' +
      ' (art. 55): um prazo curto limita quem pode concorrer. O sinal conta os dias úteis entre a ' +
      'abertura e o encerramento das propostas.',
    caveat:
      'O prazo conta da divulgação do edital, que pode ser anterior à abertura das propostas; feriados ' +
      'não são descontados; as compras do SUS pelo Ministério da Saúde podem ter prazos reduzidos à ' +
      'metade (art. 55, § 2º).',
    scope: { kind: 'record', table: 'biddings' },
    sql: (scope) => `
      SELECT 'BR-PRAZO-PROPOSTA:' || b.id AS key, 'BR-PRAZO-PROPOSTA' AS code, b.organization_id,
        ${yearOf('b.opening_date')} AS year, ${providersOf('b.id')} AS supplier_ids,
        jsonb_build_array(${record('public-calls', 'b.id::text')}) AS records,
        jsonb_build_object('working_days', w.days, 'minimum', w.minimum,
          'opening', to_char(b.opening_date AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD'),
          'closing', to_char(b.closing_date AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD')) AS figures
      FROM biddings b
      CROSS JOIN LATERAL (
        SELECT (SELECT count(*)::int FROM generate_series(
                  (b.opening_date AT TIME ZONE 'America/Sao_Paulo')::date + 1,
                  (b.closing_date AT TIME ZONE 'America/Sao_Paulo')::date, interval '1 day') g(d)
                WHERE extract(isodow FROM g.d) < 6) AS days,
               CASE WHEN b.judgment_criteria ~* 't[ée]cnica' THEN ${MIN_DAYS_TECHNIQUE} ELSE ${MIN_DAYS} END AS minimum) w
      WHERE b.kind = 'public_call' AND ${scope.biddings('b.id')} AND b.modality_id IN (${WITH_PROPOSAL_PERIOD})
        AND b.opening_date >= '${LAW_IN_FORCE} 00:00-03' AND b.closing_date > b.opening_date
        AND w.days < w.minimum`,
    cardinal: { groups: ['OCID'], value: (f) => ratio(f.working_days, f.minimum) },
    reason: (f) =>
      `Propostas recebidas de ${day(f.opening as string)} a ${day(f.closing as string)}: ${f.working_days} dias ` +
      `úteis, menos que os ${f.minimum} do art. 55.`,
  },
  {
    code: 'R017',
    title: 'Preço unitário muito acima dos demais',
    basis: 'Lei 14.133/2021, art. 23 (preço compatível com o de mercado); OCP R017',
    meaning:
      'Compara o preço unitário de cada item com os preços pagos ou registrados pelo mesmo item (a mesma ' +
      'descrição e unidade) em todo o sistema, como faz a pesquisa de preços: um preço acima da cerca de ' +
      'Q3 + 1,5 × IQR, entre pelo menos 10 preços, está muito acima dos demais.',
    caveat:
      'A mesma descrição pode esconder produtos diferentes (marca, tamanho, embalagem), e quantidades ' +
      'pequenas, fretes e locais distantes custam mais. Preços de anos diferentes são comparados juntos.',
    scope: { kind: 'prices' },
    sql: (scope) => `
      SELECT ${priceFlagKey('p')} AS key,
        'R017' AS code, p.organization_id, extract(year FROM p.day)::int AS year, ARRAY[p.supplier_id] AS supplier_ids,
        CASE WHEN p.bidding_id IS NOT NULL
          THEN jsonb_build_array(${record(`CASE b.kind WHEN 'direct_contract' THEN 'direct-contracts' ELSE 'public-calls' END`, 'b.id::text', true)})
          WHEN c.id IS NOT NULL OR a.id IS NOT NULL
          THEN jsonb_path_query_array(jsonb_build_array(
            CASE WHEN c.id IS NOT NULL THEN ${record('contracts', 'c.id::text')} END,
            CASE WHEN a.id IS NOT NULL THEN ${record('arps', 'a.id::text')} END), '$[*] ? (@ != null)')
          ELSE jsonb_build_array(${record('organizations', 'p.organization_id::text')}) END AS records,
        jsonb_build_object('amount', ${money('p.amount')}, 'unit', p.unit, 'description', d.description,
          'source', p.source, 'prices', f.prices, 'q1', ${money('f.q1')}, 'median', ${money('f.median')},
          'q3', ${money('f.q3')}, 'fence', ${money('f.fence')}, 'ratio', ${share('p.amount / f.median')}) AS figures,
        p.description_id
      FROM ${scope.prices} p
      JOIN price_fences f ON f.description_id = p.description_id AND f.unit = p.unit
      JOIN item_descriptions d ON d.id = p.description_id
      LEFT JOIN biddings b ON b.id = p.bidding_id
      LEFT JOIN orders o ON o.id = p.order_id
      LEFT JOIN contracts c ON c.organization_id = o.organization_id AND c.contract_number = o.contract_number
      LEFT JOIN arps a ON a.organization_id = o.organization_id AND a.number = o.arp_number
      WHERE p.amount > f.fence AND f.median > 0`,
    cardinal: { groups: ['OCID'], value: (f) => Number(f.ratio) },
    reason: (f) =>
      `Preço unitário de ${reais(f.amount as string)} (${f.unit}) para «${shortened(String(f.description))}», ` +
      `${times(f.ratio as number)} vezes a mediana de ${reais(f.median as string)} entre ${count(f.prices as number)} ` +
      `preços do mesmo item, acima da cerca de ${reais(f.fence as string)} (Q3 + 1,5 × IQR).`,
  },
  {
    code: 'R050',
    title: 'Fornecedor com mais da metade do valor contratado pelo órgão no ano',
    basis: 'Lei 14.133/2021, art. 11 (competição); OCP R050',
    meaning:
      'Um fornecedor que recebe mais da metade do que um órgão contratou no ano concentra o gasto do ' +
      'órgão: vale ver como foi escolhido em cada contratação.',
    caveat:
      'Um contrato grande (energia, obra, serviço contínuo) ou um fornecedor exclusivo explicam muitas ' +
      'concentrações. Anos com menos de 5 contratações não são avaliados.',
    scope: { kind: 'year' },
    sql: (scope) => `
      SELECT 'R050:' || g.organization_id || ':' || g.year || ':' || g.supplier_id AS key, 'R050' AS code,
        g.organization_id, g.year, ARRAY[g.supplier_id] AS supplier_ids,
        jsonb_build_array(${record('organizations', 'g.organization_id::text')}) AS records,
        jsonb_build_object('supplier_value', ${money('g.value')}, 'committed', ${money('g.total')},
          'share', ${share('g.value / g.total')}, 'commitments', g.commitments, 'year', g.year) AS figures
      FROM (SELECT k.organization_id, k.year, k.supplier_id, sum(k.value) AS value,
              sum(sum(k.value)) OVER (PARTITION BY k.organization_id, k.year) AS total,
              sum(count(*)) OVER (PARTITION BY k.organization_id, k.year)::int AS commitments
            FROM ${scope.commitments} k GROUP BY k.organization_id, k.year, k.supplier_id) g
      WHERE g.total > 0 AND g.commitments >= ${MIN_COMMITMENTS} AND g.value > 0.5 * g.total`,
    cardinal: { groups: ['Buyer', 'Tenderer'], value: (f) => Number(f.share) },
    reason: (f) =>
      `Um só fornecedor recebeu ${reais(f.supplier_value as string)}, ${percent(f.share as number)} dos ` +
      `${reais(f.committed as string)} contratados pelo órgão em ${f.year} (${f.commitments} contratações).`,
  },
  {
    code: 'R013',
    title: 'Órgão que mais recorre à contratação direta',
    basis: 'Lei 14.133/2021, arts. 72 a 75 (a contratação direta é a exceção); OCP R013',
    meaning:
      'A contratação direta (dispensa e inexigibilidade) é a exceção à licitação. O sinal compara a ' +
      'parte do valor contratado por contratação direta de cada órgão com a dos outros órgãos no mesmo ' +
      'ano, e aponta os que ficam muito acima (acima de Q3 + 1,5 × IQR).',
    caveat:
      'Órgãos de saúde em emergência, ou que compram de fornecedores exclusivos, contratam diretamente ' +
      'por lei. É uma comparação entre órgãos, não uma regra da lei.',
    scope: { kind: 'all' },
    sql: () => fenced('R013', 'direct_share', 'direct_share'),
    cardinal: { groups: ['Buyer'], value: (f) => Number(f.direct_share) },
    reason: (f) =>
      `${percent(f.direct_share as number)} do valor contratado pelo órgão no ano foi por contratação direta, acima ` +
      `da cerca de ${percent(f.fence as number)} entre ${f.organizations} órgãos (mediana: ${percent(f.median as number)}).`,
  },
  {
    code: 'R051',
    title: 'Contratações concentradas em poucos fornecedores',
    basis: 'Lei 14.133/2021, art. 11 (competição); OCP R051 (índice de Herfindahl)',
    meaning:
      'Mede quanto as contratações de um órgão no ano se concentram em poucos fornecedores (índice de ' +
      'Herfindahl: 1 quando um só recebe tudo) e aponta os órgãos muito acima dos outros no mesmo ano.',
    caveat:
      'Órgãos pequenos, com poucas compras, têm poucos fornecedores naturalmente. É uma comparação ' +
      'entre órgãos, não uma regra da lei.',
    scope: { kind: 'all' },
    sql: () => fenced('R051', 'hhi', 'hhi'),
    cardinal: { groups: ['Buyer'], value: (f) => Number(f.hhi) },
    reason: (f) =>
      `O índice de concentração (Herfindahl) dos fornecedores do órgão no ano é ${percent(f.hhi as number)}, acima ` +
      `da cerca de ${percent(f.fence as number)} entre ${f.organizations} órgãos (mediana: ${percent(f.median as number)}).`,
  },
] as const satisfies readonly Indicator[]

export type IndicatorCode = (typeof INDICATORS)[number]['code']

export const INDICATOR_CODES: readonly IndicatorCode[] = INDICATORS.map((indicator) => indicator.code)

/** An indicator by its code. */
export const indicatorOf = (code: string): Indicator | undefined =>
  (INDICATORS as readonly Indicator[]).find((indicator) => indicator.code === code)

/**
 * The organizations' years the organization-wide indicators compare (integrity_organization_years), from the
 * commitments of the organizations in scope: each year's commitments, what they add up to, the share by direct contract
 * (Dispensa and Inexigibilidade) and the Herfindahl index of its suppliers' shares.
 */
export const organizationYearsSql = (commitments: string) => `
  INSERT INTO integrity_organization_years (organization_id, year, commitments, committed, direct_share, hhi)
  SELECT g.organization_id, g.year, sum(g.commitments)::int, sum(g.value),
    CASE WHEN sum(g.value) > 0 THEN coalesce(sum(g.direct), 0) / sum(g.value) ELSE 0 END,
    CASE WHEN sum(g.value) > 0 THEN sum(g.value * g.value) / (sum(g.value) * sum(g.value)) ELSE 0 END
  FROM (SELECT k.organization_id, k.year, k.supplier_id, count(*) AS commitments, sum(k.value) AS value,
          sum(k.value) FILTER (WHERE k.modality_id IN (${modalityIds('Dispensa sem Disputa', 'Dispensa Eletrônica', 'Inexigibilidade')}))
            AS direct
        FROM ${commitments} k GROUP BY k.organization_id, k.year, k.supplier_id) g
  GROUP BY g.organization_id, g.year`
