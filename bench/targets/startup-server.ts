/** The reference server as `npm start` builds it, reporting how long createApp took. */
import { createApp } from "../../server/app.js";
import { BENCH_KEY, BENCH_PARTNER } from "./seed.js";

const started = performance.now();
const { app } = createApp({ environment: "sandbox", embedBaseUrl: "http://127.0.0.1:3001", partners: [{ partner: BENCH_PARTNER, keys: [BENCH_KEY] }] });
console.log(`createApp ${Math.round(performance.now() - started)}`);
app.listen(Number(process.env.PORT), "127.0.0.1");
