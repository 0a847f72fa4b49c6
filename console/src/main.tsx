import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { language } from "./i18n";
import "./styles.css";

document.documentElement.lang = language === "pt" ? "pt-BR" : "en";
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
