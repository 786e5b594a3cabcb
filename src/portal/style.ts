// The portal's one stylesheet, served as /static/portal.css (the pages' CSP allows no inline style).
// Colours meet WCAG AA contrast on white (text #1b1b1b, links #0b4f9c, errors #a4000f); focus is always
// visible; on a phone a table of records stacks each row as labelled lines, any other scrolls sideways inside its
// own region.
import { createHash } from 'node:crypto'
import { type AnyField, isRelation, type Relation } from '../resources/fields.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'

/** The class that labels a table whose columns are a kind's listed fields, in order (or the first of them). */
const recordsClass = (resource: PublicResource) => `records-${resource.path}`
export const recordsTableClass = (resource: PublicResource): string => `stack ${recordsClass(resource)}`

/** The columns of a relation's table on a record's page: its shape's fields but the id, in order. */
export const relationColumns = (relation: Relation): [string, AnyField | Relation][] =>
  Object.entries(relation.shape.fields).filter(([name]) => name !== 'id')

/** The class that labels a relation's table: named by its shape, whose columns are relationColumns. */
const relationClass = (relation: Relation) => `rows-${relation.shape.name}`
export const relationTableClass = (relation: Relation): string => `stack ${relationClass(relation)}`

/** A CSS string: quotes, backslashes and line ends escaped. */
const cssString = (text: string): string =>
  `"${text.replace(/["\\\n]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`

/** One rule per column: on a phone, each cell of a stacked table of that class is labelled by its column. */
const labelRules = (tableClass: string, labels: readonly string[]) =>
  labels.map(
    (label, column) => `table.${tableClass} td:nth-child(${column + 1})::before{content:${cssString(label)}}`,
  )

/**
 * The labels of the stacked tables of records and relations, made from the kinds' declarations: every cell of a
 * listing or a record's relations would otherwise carry its column's label (a fifth of a listing page's bytes).
 */
const relations = new Map(
  PUBLIC_RESOURCES.flatMap((resource) =>
    Object.values(resource.record.fields)
      .filter(isRelation)
      .map((relation): [string, Relation] => [relation.shape.name, relation]),
  ),
)
const columnLabels = [
  ...PUBLIC_RESOURCES.flatMap((resource) =>
    labelRules(
      recordsClass(resource),
      resource.portal.listed.map((name) => (resource.record.fields[name] as AnyField).label),
    ),
  ),
  ...[...relations.values()].flatMap((relation) =>
    labelRules(
      relationClass(relation),
      relationColumns(relation).map(([, field]) => field.label),
    ),
  ),
].join('\n')

export const STYLESHEET = `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;line-height:1.5;color:#1b1b1b;background:#fff}
body{margin:0}
a{color:#0b4f9c}
a:hover{color:#06305f}
:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
.skip{position:absolute;left:-10000px;top:0}
.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:10}
.top{background:#0b3d6e;color:#fff;padding:12px 16px;display:flex;flex-wrap:wrap;gap:8px 24px;align-items:center}
.top a{color:#fff}
.top .brand{font-weight:700;font-size:1.15rem;text-decoration:none}
.top ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px}
.crumbs ol{list-style:none;margin:0;padding:8px 16px;display:flex;flex-wrap:wrap;gap:4px;font-size:.95rem;background:#f1f4f8}
.crumbs li+li::before{content:"›";margin-right:4px;color:#4a4a4a}
main{padding:16px;max-width:1200px;margin:0 auto}
footer{padding:16px;border-top:1px solid #d0d7de;font-size:.95rem;max-width:1200px;margin:24px auto 0}
h1{font-size:1.6rem;margin:.5rem 0 1rem}
h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
.count{font-weight:400;color:#4a4a4a;font-size:1rem}
.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px 16px;padding:12px;background:#f1f4f8;border-radius:6px}
.field{display:flex;flex-direction:column;gap:4px}
label{font-weight:600;font-size:.95rem}
input,select,button{font:inherit;padding:6px 8px;border:1px solid #6b6b6b;border-radius:4px;background:#fff;color:#1b1b1b;min-height:40px;max-width:100%}
button{background:#0b4f9c;color:#fff;border-color:#0b4f9c;cursor:pointer;padding:6px 16px}
button:hover{background:#06305f}
.actions{display:flex;align-items:end;gap:12px}
.invalid input,.invalid select{border:2px solid #a4000f}
.error,.problem{color:#a4000f;margin:0;font-size:.95rem}
.total{font-weight:600;margin:16px 0 4px}
.downloads{margin:0 0 12px}
.scroll{overflow-x:auto;max-width:100%;border:1px solid #d0d7de;border-radius:6px}
table{border-collapse:collapse;width:100%;min-width:640px;font-size:.95rem}
td.money,span.money{white-space:nowrap}
th,td{text-align:left;padding:8px;border-bottom:1px solid #d0d7de;vertical-align:top}
thead th{background:#f1f4f8}
th a{text-decoration:none}
.pages{display:flex;gap:16px;align-items:center;margin:16px 0}
.fields{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:8px 24px;margin:0}
.fields div{border-bottom:1px solid #e5e9ee;padding:6px 0}
dt{font-weight:600;font-size:.9rem;color:#3d3d3d}
dd{margin:0;overflow-wrap:anywhere}
.kinds{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:12px}
.kinds a{display:block;padding:12px 16px;border:1px solid #d0d7de;border-radius:6px;text-decoration:none}
.search div{display:flex;gap:8px;flex-wrap:wrap;margin-top:4px}
.search input{flex:1 1 240px}
.plain{list-style:none;margin:0;padding:0}
.chart{width:100%;height:auto;max-width:720px}
.chart .bar{fill:#0b4f9c}
.chart .axis{stroke:#4a4a4a}
.chart .tick{font-size:12px;fill:#3d3d3d}
.chart .median{stroke:#fff;stroke-width:3}
.chart .outlier{fill:#b35c00}
table.compact{min-width:0}
.filters{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:end}
.filters p{margin:0;display:flex;flex-direction:column}
.filters>*{min-width:0;max-width:100%}
@media (max-width:640px){
table.stack{min-width:0}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
table.stack tr{display:block;border-bottom:2px solid #d0d7de;padding:4px 0}
table.stack td,table.stack tbody th{display:grid;grid-template-columns:minmax(6.5rem,38%) minmax(0,1fr);gap:8px;border:0;padding:3px 8px;overflow-wrap:anywhere}
table.stack td::before,table.stack tbody th::before{content:attr(data-label);font-weight:600;color:#3d3d3d;white-space:normal}
${columnLabels}
.scroll:has(table.stack){overflow:visible;border:0}
.chart.wide .tick{font-size:26px}.chart.wide .tick.minor{display:none}
}
@media print{header.top,.crumbs,.filters,.downloads,.skip,footer{display:none}.scroll{overflow:visible}a{color:inherit;text-decoration:none}}
figure{margin:0}
details{margin-top:8px}
.versions{list-style:none;padding:0;margin:0}
.versions>li{border-top:1px solid #d0d7de;padding:4px 0 12px}
h3{font-size:1.05rem;margin:.75rem 0 .5rem}
table.changes{min-width:0;table-layout:fixed}
.changes caption{text-align:left;font-size:.9rem;color:#3d3d3d;padding-bottom:4px}
.changes th,.changes td{overflow-wrap:anywhere}
.changes thead th:first-child{width:34%}
.banner{border:2px solid #b35c00;background:#fff8ef;border-radius:6px;padding:8px 12px;margin:0 0 12px}
.alerts{border-left:4px solid #b35c00;background:#fff8ef;padding:4px 12px;margin:0 0 16px}
.alerts ul{margin:4px 0;padding-left:20px}
.alerts ul.kinds{padding-left:0}
.alerts p{margin:4px 0;font-size:.9em}
.flags{list-style:none;padding:0}
.flags li{border-bottom:1px solid #ddd;padding:6px 0}
.flags p{margin:2px 0;overflow-wrap:anywhere}
.banner p{margin:0}
`

/** Where pages link the stylesheet: named by its content, so a page never meets a stylesheet older than it. */
export const STYLESHEET_HREF = `/static/portal.css?v=${createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 12)}`
