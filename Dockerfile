# The gateway runs its TypeScript sources directly (Node >= 22.18 strips types), so the image
# is the sources plus production dependencies.
FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY src ./src
COPY mappers ./mappers
COPY bin ./bin
COPY fixtures ./fixtures
USER node
EXPOSE 8080 9090
CMD ["node", "src/server.ts"]
