import { type TSchema, Type } from 'typebox'

/** A nullable value as OpenAPI 3.0 writes it (`nullable: true`), which the serializer understands too. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Type.Static<T> | null>({ ...schema, nullable: true })
}
