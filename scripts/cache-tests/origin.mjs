// Starts the cache-tests suite's own test server (its origin: test-engine/server/server.mjs) bound to
// loopback, without npm and without editing the suite. The suite's server reads its settings from the
// variables npm would set and calls server.listen(port) on every interface; this wrapper sets those
// variables, makes listen() bind the given host, and writes the port it got (port 0: one the kernel
// chose) to a file once it listens, so a caller can poll for that file instead of sleeping.
//   node origin.mjs SUITE_DIR PORT_FILE [HOST] [PORT]
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import process from 'node:process'
import { pathToFileURL } from 'node:url'

const [suiteDir, portFile, host = '127.0.0.1', port = '0'] = process.argv.slice(2)
if (!suiteDir || !portFile) {
  console.error('usage: node origin.mjs SUITE_DIR PORT_FILE [HOST] [PORT]')
  process.exit(2)
}
const suite = path.resolve(suiteDir)
const serverModule = path.join(suite, 'test-engine/server/server.mjs')
if (!fs.existsSync(serverModule)) {
  console.error(`origin.mjs: ${serverModule} not found: is ${suite} a checkout of http-tests/cache-tests?`)
  process.exit(2)
}

process.env.npm_config_protocol = 'http'
process.env.npm_config_port = port
process.env.npm_config_pidfile = `${portFile}.pid`
process.chdir(suite) // the server serves its static files from the working directory

const listen = http.Server.prototype.listen
http.Server.prototype.listen = function (...args) {
  this.once('listening', () => {
    const tmp = `${portFile}.tmp`
    fs.writeFileSync(tmp, `${this.address().port}\n`)
    fs.renameSync(tmp, portFile) // atomic: a poller never reads half a number
  })
  return listen.call(this, { port: Number(args[0]), host })
}

await import(pathToFileURL(serverModule).href)
