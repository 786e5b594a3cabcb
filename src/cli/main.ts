#!/usr/bin/env node
import { buildCli } from './program.js'

await buildCli().parseAsync(process.argv)
