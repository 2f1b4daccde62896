import './polyfill'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { loadEngine } from './engine/engine'
import './styles.css'

const root = createRoot(document.getElementById('root')!)
loadEngine().then(
  () => root.render(<StrictMode><App /></StrictMode>),
  (e) => root.render(<p role="alert">The engine could not load: {String(e)}</p>),
)
