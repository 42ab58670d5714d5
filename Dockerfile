FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund --omit=dev --ignore-scripts=false
COPY . .
USER node
ENTRYPOINT ["node", "bin/ledgersync.js"]
