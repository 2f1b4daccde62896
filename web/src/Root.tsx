// React and the page, mounted once the engine is in (main.tsx).
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'

export function render(element: HTMLElement) {
  createRoot(element).render(<StrictMode><App /></StrictMode>)
}
