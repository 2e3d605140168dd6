import type { AppProps } from "next/app";
import "../app/globals.css";

/** The Pages Router's frame (the donate page's only): the styles every page has. */
export default function App({ Component, pageProps }: AppProps) {
  return <Component {...pageProps} />;
}
