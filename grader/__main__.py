from .checkserver.client import main

main()
