// Stand-in for the npm package `undici`, which the cache-tests client imports only for the tests that
// check interim (1xx) responses (tests/interim.mjs):
//   new undici.Agent().compose(interimResponsesCollectingInterceptor(list))  -> passed as fetch's dispatcher
// The suite's interceptor speaks undici 7's handler API (onResponseStart ...). Node 20's fetch is built
// on a bundled undici 6 whose handlers use the older API (onConnect/onHeaders/onData/onComplete/onError),
// so the interceptor cannot be composed onto it as is. This shim dispatches every request with Node's
// own bundled Agent, forwards the old-API calls to fetch's handler untouched, and reports each 1xx
// response to the interceptor's handler as an undici-7 onResponseStart(controller, status, headers,
// statusText) call, which is all the suite's interceptor records. Without it (and without npm), the
// import fails and the required test interim-not-cached is counted as failed.
// Used only when a real `undici` cannot be resolved (see undici-hook.mjs).

const dispatcherSymbol = Symbol.for('undici.globalDispatcher.1')
if (globalThis[dispatcherSymbol] === undefined) {
  await fetch('data:,') // makes Node's fetch install its global dispatcher, a bundled undici Agent
}
const BundledAgent = globalThis[dispatcherSymbol].constructor

function headersObject (rawHeaders) {
  const headers = {}
  for (let i = 0; i + 1 < (rawHeaders?.length ?? 0); i += 2) {
    const name = rawHeaders[i].toString('latin1').toLowerCase()
    const value = rawHeaders[i + 1].toString('latin1')
    if (name in headers) {
      headers[name] = Array.isArray(headers[name]) ? [...headers[name], value] : [headers[name], value]
    } else {
      headers[name] = value
    }
  }
  return headers
}

export class Agent {
  #agent

  constructor (options) {
    this.#agent = new BundledAgent(options)
  }

  dispatch (opts, handler) {
    return this.#agent.dispatch(opts, handler)
  }

  close () { return this.#agent.close() }
  destroy (err) { return this.#agent.destroy(err) }

  compose (...interceptors) {
    const agent = this.#agent
    return {
      dispatch (opts, handler) {
        // Let the interceptors wrap a dispatch function; the handler they pass on receives the
        // interim responses, the original (old-API) handler everything else.
        let dispatch = (innerOpts, newApiHandler) => {
          const controller = { abort () {}, pause () {}, resume () {}, paused: false, aborted: false }
          const onHeaders = (statusCode, rawHeaders, resume, statusText) => {
            if (statusCode < 200) {
              newApiHandler.onResponseStart?.(controller, statusCode, headersObject(rawHeaders), statusText)
            }
            return handler.onHeaders(statusCode, rawHeaders, resume, statusText)
          }
          // every other member is fetch's handler's own, called with that handler as `this`
          const adapter = new Proxy(handler, {
            get (target, prop) {
              if (prop === 'onHeaders') return onHeaders
              const value = Reflect.get(target, prop, target)
              return typeof value === 'function' ? value.bind(target) : value
            }
          })
          return agent.dispatch(innerOpts, adapter)
        }
        for (const interceptor of interceptors.flat().reverse()) dispatch = interceptor(dispatch)
        return dispatch(opts, handler)
      },
      close () { return agent.close() },
      destroy (err) { return agent.destroy(err) }
    }
  }
}

export default { Agent }
