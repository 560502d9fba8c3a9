// `node --import .../undici-hook.mjs`: resolves the bare specifier `undici` to undici-shim.mjs when no
// real undici package can be found (the suite's dependencies were not installed with npm).
import { register } from 'node:module'

register(`data:text/javascript,${encodeURIComponent(`
const shim = ${JSON.stringify(new URL('./undici-shim.mjs', import.meta.url).href)}
export async function resolve (specifier, context, nextResolve) {
  if (specifier !== 'undici') return nextResolve(specifier, context)
  try {
    return await nextResolve(specifier, context)
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err
    return { url: shim, shortCircuit: true }
  }
}`)}`)
